package runtime

import (
	"errors"
	"github.com/cilium/ebpf/asm"
	"testing"

	"github.com/cilium/ebpf/btf"
)

func TestParseSection(t *testing.T) {
	for _, tc := range []struct {
		sec, want string
		sleep     bool
	}{
		{"uprobe//usr/bin/app:main", "uprobe /usr/bin/app:main", false},
		{"uretprobe/app:work+0x10", "uprobe(return) app:work+0x10", false},
		{"uprobe.s//lib/libc.so.6:malloc", "uprobe /lib/libc.so.6:malloc", true},
		{"uprobe//bin/x:0x1234", "uprobe /bin/x:0x1234", false},
		{"uprobe", "uprobe", false},
		{"kprobe/do_sys_open+8", "kprobe do_sys_open+0x8", false},
		{"kretprobe/vfs_read", "kprobe(return) vfs_read", false},
		{"tp/sched/sched_switch", "tracepoint sched/sched_switch", false},
		{"tracepoint/syscalls/sys_enter_openat", "tracepoint syscalls/sys_enter_openat", false},
		{"raw_tp/sys_enter", "raw_tracepoint sys_enter", false},
		{"raw_tracepoint/sched_switch", "raw_tracepoint sched_switch", false},
		{"xdp", "xdp", false},
		{"tc/egress", "tc", false},
	} {
		p, err := parseSection(tc.sec)
		if err != nil || p.String() != tc.want || p.sleepable != tc.sleep {
			t.Errorf("parseSection(%q) = %q sleepable=%v, %v; want %q", tc.sec, p, p.sleepable, err, tc.want)
		}
	}
	for _, bad := range []string{"socket", "tp/onlycat", "raw_tp/a/b", "uprobe/nocolon", "uprobe/bin:work+zz", "kprobe/a:b", "tc/sideways", "uprobe/:f"} {
		if _, err := parseSection(bad); !errors.Is(err, ErrSection) {
			t.Errorf("parseSection(%q) err = %v, want ErrSection", bad, err)
		}
	}
}

func TestPlanAttach(t *testing.T) {
	spec := countSpec("uprobe")
	if _, err := planAttach(spec.Copy(), &Options{}); !errors.Is(err, ErrNoTarget) {
		t.Errorf("no probe: err = %v, want ErrNoTarget", err)
	}
	plans, err := planAttach(spec.Copy(), &Options{Probe: "/bin/sh:main+4"})
	if err != nil || len(plans) != 1 || plans[0].point.String() != "uprobe /bin/sh:main+0x4" {
		t.Errorf("plans = %v, %v", plans, err)
	}
	// A single probe program: --load replaces the section's target.
	plans, _ = planAttach(countSpec("uprobe//bin/a:f").Copy(), &Options{Probe: "/bin/b:g"})
	if plans[0].point.String() != "uprobe /bin/b:g" {
		t.Errorf("override = %v", plans[0].point)
	}
	if _, err := planAttach(countSpec("xdp").Copy(), &Options{}); !errors.Is(err, ErrNoInterface) {
		t.Errorf("xdp without iface: %v", err)
	}
	two := countSpec("uprobe//bin/a:f")
	two.Programs["other"] = program("other", "uprobe//bin/a:g", asm.Instructions{asm.Mov.Imm(asm.R0, 0)})
	plans, err = planAttach(two, &Options{Attach: []Target{{Program: "other", Probe: "/bin/c:h"}}})
	if err != nil || len(plans) != 2 || plans[0].name != "other" || plans[0].point.String() != "uprobe /bin/c:h" {
		t.Errorf("explicit targets first: %v %v", plans, err)
	}
}

func TestParseTraceLine(t *testing.T) {
	task, pid, msg, ok := parseTraceLine("     my-app-thr-1234    [002] d..31  5678.901234: bpf_trace_printk: n=5 x")
	if !ok || task != "my-app-thr" || pid != 1234 || msg != "n=5 x" {
		t.Errorf("got %q %d %q %v", task, pid, msg, ok)
	}
	if _, _, _, ok := parseTraceLine("  <...>-1 [000] ..... 1.0: tracing_mark_write: hi"); ok {
		t.Error("a marker line parsed as printk")
	}
}

func TestDecode(t *testing.T) {
	bits := &btf.Struct{Name: "bits", Size: 8, Members: []btf.Member{
		{Name: "a", Type: u32, Offset: 0, BitfieldSize: 3},
		{Name: "b", Type: s32, Offset: 3, BitfieldSize: 5},
		{Name: "e", Type: &btf.Enum{Name: "color", Size: 4, Values: []btf.EnumValue{{Name: "RED", Value: 0}, {Name: "BLUE", Value: 2}}}, Offset: 32},
	}}
	v, err := Decode(bits, []byte{0b11110_101, 0, 0, 0, 2, 0, 0, 0})
	if err != nil || FormatRecord(v) != "a=5 b=-2 e=BLUE" {
		t.Errorf("bitfields/enum = %q, %v", FormatRecord(v), err)
	}
	arr := &btf.Array{Index: u32, Type: &btf.Typedef{Name: "__u8", Type: &btf.Int{Name: "unsigned char", Size: 1}}, Nelems: 3}
	if v, _ := Decode(arr, []byte{1, 2, 3}); FormatValue(v) != "[1,2,3]" {
		t.Errorf("u8 array = %v", FormatValue(v))
	}
	ptr := &btf.Pointer{Target: u32}
	if v, _ := Decode(ptr, le64(0xdead)); v != "0xdead" {
		t.Errorf("pointer = %v", v)
	}
	if _, err := Decode(eventType, make([]byte, 10)); !errors.Is(err, ErrDecode) {
		t.Errorf("short buffer: err = %v, want ErrDecode", err)
	}
	// A cyclic typedef chain is malformed BTF: an error, not a hang or panic.
	td := &btf.Typedef{Name: "loop"}
	td.Type = td
	if _, err := Decode(td, make([]byte, 8)); err == nil {
		t.Error("cyclic type decoded without error")
	}
	if v, _ := Decode(nil, []byte{0xab, 0x01}); v != "0xab01" {
		t.Errorf("untyped = %v", v)
	}
}
