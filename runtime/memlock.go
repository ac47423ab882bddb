package runtime

import (
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// removeMemlock removes RLIMIT_MEMLOCK where the kernel still charges BPF
// memory to it (before 5.11), as cilium/ebpf's rlimit.RemoveMemlock does.
// cilium's package probes the kernel in its init, in every process that
// links it, so a plain compile would create a BPF map; here the probe runs
// only when --load is about to load, before any other BPF object exists.
func removeMemlock() error {
	if err := memcgAccounting(); err == nil {
		return nil
	} else if !errors.Is(err, errNoMemcgAccounting) {
		return err
	}
	limit := unix.Rlimit{Cur: unix.RLIM_INFINITY, Max: unix.RLIM_INFINITY}
	if err := unix.Prlimit(0, unix.RLIMIT_MEMLOCK, &limit, nil); err != nil {
		return fmt.Errorf("failed to set memlock rlimit: %w", err)
	}
	return nil
}

var errNoMemcgAccounting = errors.New("memcg-based accounting for BPF memory not supported (requires >= 5.11)")

// memcgAccounting reports whether the kernel charges BPF maps to the memory
// cgroup: creating an array map succeeds with RLIMIT_MEMLOCK at zero. The
// old limit is restored whatever happens.
func memcgAccounting() error {
	var old unix.Rlimit
	if err := unix.Prlimit(0, unix.RLIMIT_MEMLOCK, nil, &old); err != nil {
		return fmt.Errorf("getting original memlock rlimit: %s", err)
	}
	zero := unix.Rlimit{Cur: 0, Max: old.Max}
	if err := unix.Prlimit(0, unix.RLIMIT_MEMLOCK, &zero, &old); err != nil {
		return fmt.Errorf("lowering memlock rlimit: %s", err)
	}
	// union bpf_attr for BPF_MAP_CREATE: map_type, key_size, value_size,
	// max_entries, then zeros.
	var attr [18]uint32
	attr[0], attr[1], attr[2], attr[3] = unix.BPF_MAP_TYPE_ARRAY, 4, 4, 1
	fd, _, errno := unix.Syscall(unix.SYS_BPF, unix.BPF_MAP_CREATE, uintptr(unsafe.Pointer(&attr[0])), unsafe.Sizeof(attr))
	if err := unix.Prlimit(0, unix.RLIMIT_MEMLOCK, &old, nil); err != nil {
		return fmt.Errorf("restoring old memlock rlimit: %s", err)
	}
	switch {
	case errno == 0:
		unix.Close(int(fd))
		return nil
	case errno == unix.EPERM:
		return errNoMemcgAccounting
	}
	return fmt.Errorf("unexpected error detecting memory cgroup accounting: %s", errno)
}
