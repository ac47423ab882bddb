package runtime

import (
	"fmt"
	"sort"

	"github.com/cilium/ebpf"
	"golang.org/x/sys/unix"
)

// defaultPinPath is libbpf's pin root for maps pinned by name.
const defaultPinPath = "/sys/fs/bpf"

// pinnedMaps lists the maps of spec pinned by name, sorted.
func pinnedMaps(spec *ebpf.CollectionSpec) []string {
	var names []string
	for name, m := range spec.Maps {
		if m.Pinning == ebpf.PinByName {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// checkPinPath settles opts.PinPath and, when spec pins maps by name,
// checks that it is a directory on a BPF file system, as libbpf needs:
// the kernel's error for a pin elsewhere says only "permission denied".
func checkPinPath(spec *ebpf.CollectionSpec, opts *Options) error {
	if opts.PinPath == "" {
		opts.PinPath = defaultPinPath
	}
	names := pinnedMaps(spec)
	if len(names) == 0 {
		return nil
	}
	var fs unix.Statfs_t
	if err := unix.Statfs(opts.PinPath, &fs); err != nil {
		return fmt.Errorf("map %s is pinned by name (LIBBPF_PIN_BY_NAME), but the pin path %s: %w (give another with --pin-path DIR)", names[0], opts.PinPath, err)
	}
	if fs.Type != unix.BPF_FS_MAGIC {
		return fmt.Errorf("map %s is pinned by name (LIBBPF_PIN_BY_NAME), but the pin path %s is not on a BPF file system (mount -t bpf bpf %s, or give one with --pin-path DIR)", names[0], opts.PinPath, opts.PinPath)
	}
	return nil
}
