package abi

import (
	"testing"

	"github.com/cilium/ebpf"
)

func TestParseSection(t *testing.T) {
	for _, tc := range []struct {
		name       string
		prefix     string // "" for no match
		target     string
		noAutoload bool
		prog       ebpf.ProgramType
		attach     ebpf.AttachType
		kind       Kind
		ret, sleep bool
	}{
		{name: "xdp", prefix: "xdp", prog: ebpf.XDP, attach: ebpf.AttachXDP, kind: KindXDP},
		{name: "?xdp", prefix: "xdp", noAutoload: true, prog: ebpf.XDP, attach: ebpf.AttachXDP, kind: KindXDP},
		{name: "xdp.frags", prefix: "xdp.frags", prog: ebpf.XDP, attach: ebpf.AttachXDP},
		{name: "xdp/devmap", prefix: "xdp/devmap", prog: ebpf.XDP, attach: ebpf.AttachXDPDevMap, kind: KindXDP},
		// "xdp" takes no target: libbpf derives no type from xdp/foo.
		{name: "xdp/foo"},
		{name: "socket", prefix: "socket", prog: ebpf.SocketFilter},
		{name: "socket1"},
		{name: "kprobe", prefix: "kprobe", prog: ebpf.Kprobe, kind: KindKprobe},
		{name: "kprobe/do_sys_open", prefix: "kprobe", target: "do_sys_open", prog: ebpf.Kprobe, kind: KindKprobe},
		{name: "kretprobe/do_sys_open", prefix: "kretprobe", target: "do_sys_open", prog: ebpf.Kprobe, kind: KindKprobe, ret: true},
		// The target is everything after the first slash.
		{name: "uprobe//bin/app:main+0x10", prefix: "uprobe", target: "/bin/app:main+0x10", prog: ebpf.Kprobe, kind: KindUprobe},
		{name: "uretprobe.s/app:f", prefix: "uretprobe.s", target: "app:f", prog: ebpf.Kprobe, kind: KindUprobe, ret: true, sleep: true},
		{name: "uprobe.multi/app:f*", prefix: "uprobe.multi", target: "app:f*", prog: ebpf.Kprobe, attach: ebpf.AttachTraceUprobeMulti},
		// A prefix must end at a slash or the end of the name.
		{name: "kprobex/f"},
		{name: "tp/syscalls/sys_enter_openat", prefix: "tp", target: "syscalls/sys_enter_openat", prog: ebpf.TracePoint, kind: KindTracepoint},
		{name: "raw_tp.w/foo", prefix: "raw_tp.w", target: "foo", prog: ebpf.RawTracepointWritable, kind: KindRawTracepoint},
		{name: "fentry.s/do_unlinkat", prefix: "fentry.s", target: "do_unlinkat", prog: ebpf.Tracing, attach: ebpf.AttachTraceFEntry, kind: KindTracing, sleep: true},
		{name: "lsm/file_open", prefix: "lsm", target: "file_open", prog: ebpf.LSM, attach: ebpf.AttachLSMMac, kind: KindLSM},
		{name: "freplace/f", prefix: "freplace", target: "f", prog: ebpf.Extension},
		{name: "tc", prefix: "tc", prog: ebpf.SchedCLS, kind: KindTC},
		{name: "tc/egress", prefix: "tc/egress", prog: ebpf.SchedCLS, attach: ebpf.AttachTCXEgress, kind: KindTC},
		{name: "tc/other"},
		{name: "cgroup/connect4", prefix: "cgroup/connect4", prog: ebpf.CGroupSockAddr, attach: ebpf.AttachCGroupInet4Connect},
		{name: "cgroup/sock", prefix: "cgroup/sock", prog: ebpf.CGroupSock, attach: ebpf.AttachCGroupInetSockCreate},
		{name: "syscall", prefix: "syscall", prog: ebpf.Syscall, sleep: true},
		{name: "struct_ops.s/init", prefix: "struct_ops.s", target: "init", prog: ebpf.StructOps, sleep: true},
		{name: ".text"},
		{name: "config"},
		{name: ""},
		{name: "?", noAutoload: true},
	} {
		s, ok := ParseSection(tc.name)
		if ok != (tc.prefix != "") || ok != (s.Def != nil) {
			t.Errorf("%q: matched %v (def %v), want %v", tc.name, ok, s.Def, tc.prefix != "")
			continue
		}
		if s.NoAutoload != tc.noAutoload {
			t.Errorf("%q: NoAutoload %v", tc.name, s.NoAutoload)
		}
		if !ok {
			continue
		}
		d := s.Def
		if d.Prefix != tc.prefix || s.Target != tc.target || d.Program != tc.prog || d.Attach != tc.attach ||
			d.Kind != tc.kind || d.Return != tc.ret || d.Sleepable() != tc.sleep {
			t.Errorf("%q: got %+v target %q, want prefix %q target %q %v %v kind %v ret %v sleep %v",
				tc.name, *d, s.Target, tc.prefix, tc.target, tc.prog, tc.attach, tc.kind, tc.ret, tc.sleep)
		}
		if got := FormatSection(d.Prefix, s.Target, s.NoAutoload); got != tc.name {
			t.Errorf("FormatSection(ParseSection(%q)) = %q", tc.name, got)
		}
	}
}

func TestProbeSection(t *testing.T) {
	for _, tc := range []struct {
		user, ret, sleep bool
		target, want     string
	}{
		{true, false, false, "/bin/app:main+0x0", "uprobe//bin/app:main+0x0"},
		{true, true, false, "/bin/app:main", "uretprobe//bin/app:main"},
		{true, false, true, "/bin/app:0x1234", "uprobe.s//bin/app:0x1234"},
		{true, true, true, "/bin/app:f", "uretprobe.s//bin/app:f"},
		{false, false, false, "do_sys_open+0x4", "kprobe/do_sys_open+0x4"},
		{false, true, false, "do_sys_open", "kretprobe/do_sys_open"},
	} {
		got := ProbeSection(tc.user, tc.ret, tc.sleep, tc.target)
		if got != tc.want {
			t.Errorf("ProbeSection(%v, %v, %v, %q) = %q, want %q", tc.user, tc.ret, tc.sleep, tc.target, got, tc.want)
		}
		s, ok := ParseSection(got)
		if !ok || !s.Def.Probe() || s.Def.Return != tc.ret || s.Def.Sleepable() != tc.sleep || s.Target != tc.target ||
			(s.Def.Kind == KindUprobe) != tc.user || s.Def.KernelProbe() == tc.user {
			t.Errorf("ParseSection(%q) = %+v, %+v", got, s, s.Def)
		}
	}
}

func TestReadErrorCounter(t *testing.T) {
	c := ReadErrorCounter("h_1", "len")
	if p, ok := SplitReadErrorCounter(c, "h_1"); !ok || p != "len" {
		t.Errorf("SplitReadErrorCounter(%q) = %q, %v", c, p, ok)
	}
	if _, ok := SplitReadErrorCounter(c, "h"); ok {
		t.Errorf("%q split under program h", c)
	}
	if !IsEntryProgram(EntryProgram("h_1")) || IsEntryProgram("h_1") {
		t.Error("EntryProgram/IsEntryProgram disagree")
	}
}
