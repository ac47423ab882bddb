package abi

import (
	"strings"

	"github.com/cilium/ebpf"
)

// SectionFlags are libbpf's SEC_* flags of a section definition.
type SectionFlags uint8

const (
	// Sleepable programs load with BPF_F_SLEEPABLE (the ".s" sections).
	Sleepable SectionFlags = 1 << iota
	// AttachBTF sections name a kernel BTF function or type as target.
	AttachBTF
	// Attachable: the expected attach type is passed at load.
	Attachable
	// AttachableOpt: as Attachable, but only where the kernel needs it.
	AttachableOpt
	// XDPFrags programs load with BPF_F_XDP_HAS_FRAGS.
	XDPFrags
	// USDT programs attach to user statically defined tracepoints.
	USDT
)

// Kind is how bpfcc's loader attaches a program (libbpf's attach function
// of the section, where libbpf has one); KindNone for what it does not.
type Kind uint8

const (
	KindNone Kind = iota
	KindUprobe
	KindKprobe
	KindTracepoint
	KindRawTracepoint
	KindTracing // tp_btf, fentry, fexit, fmod_ret and their .s forms
	KindLSM
	KindXDP
	KindTC
)

var kindNames = [...]string{"unknown", "uprobe", "kprobe", "tracepoint", "raw_tracepoint", "tracing", "lsm", "xdp", "tc"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// SectionDef is one entry of the section table.
type SectionDef struct {
	// Prefix is the name, or what precedes "/TARGET" when Target is set.
	Prefix string
	// Target: the name may be Prefix alone or Prefix/TARGET (libbpf's
	// trailing '+'); otherwise it must be Prefix exactly.
	Target  bool
	Program ebpf.ProgramType
	// Attach is the expected attach type (AttachNone for none).
	Attach ebpf.AttachType
	Flags  SectionFlags
	Kind   Kind
	// Return: the program runs at the function's return (kretprobe,
	// uretprobe, ...).
	Return bool
}

// Sleepable reports whether programs of d load with BPF_F_SLEEPABLE.
func (d *SectionDef) Sleepable() bool { return d.Flags&Sleepable != 0 }

// Probe reports whether d is a uprobe or kprobe section: one whose target
// is a function (of a user binary or of the kernel) and whose context is
// struct pt_regs.
func (d *SectionDef) Probe() bool { return d.Kind == KindUprobe || d.Kind == KindKprobe }

// KernelProbe reports whether d probes kernel functions (kprobe,
// kretprobe, their multi and session forms, ksyscall).
func (d *SectionDef) KernelProbe() bool {
	return d.Program == ebpf.Kprobe && d.Prefix[0] == 'k'
}

// Sections is libbpf 1.5's section table (section_defs in libbpf.c), in
// its order: the first entry that matches a name wins.
var Sections = []SectionDef{
	{Prefix: "socket", Program: ebpf.SocketFilter},
	{Prefix: "sk_reuseport/migrate", Program: ebpf.SkReuseport, Attach: ebpf.AttachSkReuseportSelectOrMigrate, Flags: Attachable},
	{Prefix: "sk_reuseport", Program: ebpf.SkReuseport, Attach: ebpf.AttachSkReuseportSelect, Flags: Attachable},
	{Prefix: "kprobe", Target: true, Program: ebpf.Kprobe, Kind: KindKprobe},
	{Prefix: "uprobe", Target: true, Program: ebpf.Kprobe, Kind: KindUprobe},
	{Prefix: "uprobe.s", Target: true, Program: ebpf.Kprobe, Flags: Sleepable, Kind: KindUprobe},
	{Prefix: "kretprobe", Target: true, Program: ebpf.Kprobe, Kind: KindKprobe, Return: true},
	{Prefix: "uretprobe", Target: true, Program: ebpf.Kprobe, Kind: KindUprobe, Return: true},
	{Prefix: "uretprobe.s", Target: true, Program: ebpf.Kprobe, Flags: Sleepable, Kind: KindUprobe, Return: true},
	{Prefix: "kprobe.multi", Target: true, Program: ebpf.Kprobe, Attach: ebpf.AttachTraceKprobeMulti},
	{Prefix: "kretprobe.multi", Target: true, Program: ebpf.Kprobe, Attach: ebpf.AttachTraceKprobeMulti, Return: true},
	{Prefix: "kprobe.session", Target: true, Program: ebpf.Kprobe, Attach: ebpf.AttachTraceKprobeSession},
	{Prefix: "uprobe.multi", Target: true, Program: ebpf.Kprobe, Attach: ebpf.AttachTraceUprobeMulti},
	{Prefix: "uretprobe.multi", Target: true, Program: ebpf.Kprobe, Attach: ebpf.AttachTraceUprobeMulti, Return: true},
	{Prefix: "uprobe.multi.s", Target: true, Program: ebpf.Kprobe, Attach: ebpf.AttachTraceUprobeMulti, Flags: Sleepable},
	{Prefix: "uretprobe.multi.s", Target: true, Program: ebpf.Kprobe, Attach: ebpf.AttachTraceUprobeMulti, Flags: Sleepable, Return: true},
	{Prefix: "ksyscall", Target: true, Program: ebpf.Kprobe},
	{Prefix: "kretsyscall", Target: true, Program: ebpf.Kprobe, Return: true},
	{Prefix: "usdt", Target: true, Program: ebpf.Kprobe, Flags: USDT},
	{Prefix: "usdt.s", Target: true, Program: ebpf.Kprobe, Flags: USDT | Sleepable},
	{Prefix: "tc/ingress", Program: ebpf.SchedCLS, Attach: ebpf.AttachTCXIngress, Kind: KindTC},
	{Prefix: "tc/egress", Program: ebpf.SchedCLS, Attach: ebpf.AttachTCXEgress, Kind: KindTC},
	{Prefix: "tcx/ingress", Program: ebpf.SchedCLS, Attach: ebpf.AttachTCXIngress, Kind: KindTC},
	{Prefix: "tcx/egress", Program: ebpf.SchedCLS, Attach: ebpf.AttachTCXEgress, Kind: KindTC},
	{Prefix: "tc", Program: ebpf.SchedCLS, Kind: KindTC},
	{Prefix: "classifier", Program: ebpf.SchedCLS, Kind: KindTC},
	{Prefix: "action", Program: ebpf.SchedACT},
	{Prefix: "netkit/primary", Program: ebpf.SchedCLS, Attach: ebpf.AttachNetkitPrimary},
	{Prefix: "netkit/peer", Program: ebpf.SchedCLS, Attach: ebpf.AttachNetkitPeer},
	{Prefix: "tracepoint", Target: true, Program: ebpf.TracePoint, Kind: KindTracepoint},
	{Prefix: "tp", Target: true, Program: ebpf.TracePoint, Kind: KindTracepoint},
	{Prefix: "raw_tracepoint", Target: true, Program: ebpf.RawTracepoint, Kind: KindRawTracepoint},
	{Prefix: "raw_tp", Target: true, Program: ebpf.RawTracepoint, Kind: KindRawTracepoint},
	{Prefix: "raw_tracepoint.w", Target: true, Program: ebpf.RawTracepointWritable, Kind: KindRawTracepoint},
	{Prefix: "raw_tp.w", Target: true, Program: ebpf.RawTracepointWritable, Kind: KindRawTracepoint},
	{Prefix: "tp_btf", Target: true, Program: ebpf.Tracing, Attach: ebpf.AttachTraceRawTp, Flags: AttachBTF, Kind: KindTracing},
	{Prefix: "fentry", Target: true, Program: ebpf.Tracing, Attach: ebpf.AttachTraceFEntry, Flags: AttachBTF, Kind: KindTracing},
	{Prefix: "fmod_ret", Target: true, Program: ebpf.Tracing, Attach: ebpf.AttachModifyReturn, Flags: AttachBTF, Kind: KindTracing},
	{Prefix: "fexit", Target: true, Program: ebpf.Tracing, Attach: ebpf.AttachTraceFExit, Flags: AttachBTF, Kind: KindTracing},
	{Prefix: "fentry.s", Target: true, Program: ebpf.Tracing, Attach: ebpf.AttachTraceFEntry, Flags: AttachBTF | Sleepable, Kind: KindTracing},
	{Prefix: "fmod_ret.s", Target: true, Program: ebpf.Tracing, Attach: ebpf.AttachModifyReturn, Flags: AttachBTF | Sleepable, Kind: KindTracing},
	{Prefix: "fexit.s", Target: true, Program: ebpf.Tracing, Attach: ebpf.AttachTraceFExit, Flags: AttachBTF | Sleepable, Kind: KindTracing},
	{Prefix: "freplace", Target: true, Program: ebpf.Extension, Flags: AttachBTF},
	{Prefix: "lsm", Target: true, Program: ebpf.LSM, Attach: ebpf.AttachLSMMac, Flags: AttachBTF, Kind: KindLSM},
	{Prefix: "lsm.s", Target: true, Program: ebpf.LSM, Attach: ebpf.AttachLSMMac, Flags: AttachBTF | Sleepable, Kind: KindLSM},
	{Prefix: "lsm_cgroup", Target: true, Program: ebpf.LSM, Attach: ebpf.AttachLSMCgroup, Flags: AttachBTF},
	{Prefix: "iter", Target: true, Program: ebpf.Tracing, Attach: ebpf.AttachTraceIter, Flags: AttachBTF},
	{Prefix: "iter.s", Target: true, Program: ebpf.Tracing, Attach: ebpf.AttachTraceIter, Flags: AttachBTF | Sleepable},
	{Prefix: "syscall", Program: ebpf.Syscall, Flags: Sleepable},
	{Prefix: "xdp.frags/devmap", Program: ebpf.XDP, Attach: ebpf.AttachXDPDevMap, Flags: XDPFrags},
	{Prefix: "xdp/devmap", Program: ebpf.XDP, Attach: ebpf.AttachXDPDevMap, Flags: Attachable, Kind: KindXDP},
	{Prefix: "xdp.frags/cpumap", Program: ebpf.XDP, Attach: ebpf.AttachXDPCPUMap, Flags: XDPFrags},
	{Prefix: "xdp/cpumap", Program: ebpf.XDP, Attach: ebpf.AttachXDPCPUMap, Flags: Attachable, Kind: KindXDP},
	{Prefix: "xdp.frags", Program: ebpf.XDP, Attach: ebpf.AttachXDP, Flags: XDPFrags},
	{Prefix: "xdp", Program: ebpf.XDP, Attach: ebpf.AttachXDP, Flags: AttachableOpt, Kind: KindXDP},
	{Prefix: "perf_event", Program: ebpf.PerfEvent},
	{Prefix: "lwt_in", Program: ebpf.LWTIn},
	{Prefix: "lwt_out", Program: ebpf.LWTOut},
	{Prefix: "lwt_xmit", Program: ebpf.LWTXmit},
	{Prefix: "lwt_seg6local", Program: ebpf.LWTSeg6Local},
	{Prefix: "sockops", Program: ebpf.SockOps, Attach: ebpf.AttachCGroupSockOps, Flags: AttachableOpt},
	{Prefix: "sk_skb/stream_parser", Program: ebpf.SkSKB, Attach: ebpf.AttachSkSKBStreamParser, Flags: AttachableOpt},
	{Prefix: "sk_skb/stream_verdict", Program: ebpf.SkSKB, Attach: ebpf.AttachSkSKBStreamVerdict, Flags: AttachableOpt},
	{Prefix: "sk_skb/verdict", Program: ebpf.SkSKB, Attach: ebpf.AttachSkSKBVerdict, Flags: AttachableOpt},
	{Prefix: "sk_skb", Program: ebpf.SkSKB},
	{Prefix: "sk_msg", Program: ebpf.SkMsg, Attach: ebpf.AttachSkMsgVerdict, Flags: AttachableOpt},
	{Prefix: "lirc_mode2", Program: ebpf.LircMode2, Attach: ebpf.AttachLircMode2, Flags: AttachableOpt},
	{Prefix: "flow_dissector", Program: ebpf.FlowDissector, Attach: ebpf.AttachFlowDissector, Flags: AttachableOpt},
	{Prefix: "cgroup_skb/ingress", Program: ebpf.CGroupSKB, Attach: ebpf.AttachCGroupInetIngress, Flags: AttachableOpt},
	{Prefix: "cgroup_skb/egress", Program: ebpf.CGroupSKB, Attach: ebpf.AttachCGroupInetEgress, Flags: AttachableOpt},
	{Prefix: "cgroup/skb", Program: ebpf.CGroupSKB},
	{Prefix: "cgroup/sock_create", Program: ebpf.CGroupSock, Attach: ebpf.AttachCGroupInetSockCreate, Flags: Attachable},
	{Prefix: "cgroup/sock_release", Program: ebpf.CGroupSock, Attach: ebpf.AttachCgroupInetSockRelease, Flags: Attachable},
	{Prefix: "cgroup/sock", Program: ebpf.CGroupSock, Attach: ebpf.AttachCGroupInetSockCreate, Flags: AttachableOpt},
	{Prefix: "cgroup/post_bind4", Program: ebpf.CGroupSock, Attach: ebpf.AttachCGroupInet4PostBind, Flags: Attachable},
	{Prefix: "cgroup/post_bind6", Program: ebpf.CGroupSock, Attach: ebpf.AttachCGroupInet6PostBind, Flags: Attachable},
	{Prefix: "cgroup/bind4", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCGroupInet4Bind, Flags: Attachable},
	{Prefix: "cgroup/bind6", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCGroupInet6Bind, Flags: Attachable},
	{Prefix: "cgroup/connect4", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCGroupInet4Connect, Flags: Attachable},
	{Prefix: "cgroup/connect6", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCGroupInet6Connect, Flags: Attachable},
	{Prefix: "cgroup/connect_unix", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCgroupUnixConnect, Flags: Attachable},
	{Prefix: "cgroup/sendmsg4", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCGroupUDP4Sendmsg, Flags: Attachable},
	{Prefix: "cgroup/sendmsg6", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCGroupUDP6Sendmsg, Flags: Attachable},
	{Prefix: "cgroup/sendmsg_unix", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCgroupUnixSendmsg, Flags: Attachable},
	{Prefix: "cgroup/recvmsg4", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCGroupUDP4Recvmsg, Flags: Attachable},
	{Prefix: "cgroup/recvmsg6", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCGroupUDP6Recvmsg, Flags: Attachable},
	{Prefix: "cgroup/recvmsg_unix", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCgroupUnixRecvmsg, Flags: Attachable},
	{Prefix: "cgroup/getpeername4", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCgroupInet4GetPeername, Flags: Attachable},
	{Prefix: "cgroup/getpeername6", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCgroupInet6GetPeername, Flags: Attachable},
	{Prefix: "cgroup/getpeername_unix", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCgroupUnixGetpeername, Flags: Attachable},
	{Prefix: "cgroup/getsockname4", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCgroupInet4GetSockname, Flags: Attachable},
	{Prefix: "cgroup/getsockname6", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCgroupInet6GetSockname, Flags: Attachable},
	{Prefix: "cgroup/getsockname_unix", Program: ebpf.CGroupSockAddr, Attach: ebpf.AttachCgroupUnixGetsockname, Flags: Attachable},
	{Prefix: "cgroup/sysctl", Program: ebpf.CGroupSysctl, Attach: ebpf.AttachCGroupSysctl, Flags: Attachable},
	{Prefix: "cgroup/getsockopt", Program: ebpf.CGroupSockopt, Attach: ebpf.AttachCGroupGetsockopt, Flags: Attachable},
	{Prefix: "cgroup/setsockopt", Program: ebpf.CGroupSockopt, Attach: ebpf.AttachCGroupSetsockopt, Flags: Attachable},
	{Prefix: "cgroup/dev", Program: ebpf.CGroupDevice, Attach: ebpf.AttachCGroupDevice, Flags: AttachableOpt},
	{Prefix: "struct_ops", Target: true, Program: ebpf.StructOps},
	{Prefix: "struct_ops.s", Target: true, Program: ebpf.StructOps, Flags: Sleepable},
	{Prefix: "sk_lookup", Program: ebpf.SkLookup, Attach: ebpf.AttachSkLookup, Flags: Attachable},
	{Prefix: "netfilter", Program: ebpf.Netfilter, Attach: ebpf.AttachNetfilter},
}

// Section is a parsed program section name.
type Section struct {
	// Def is the matching table entry; nil when libbpf derives no program
	// type from the name.
	Def *SectionDef
	// Name is the name without a leading '?'.
	Name string
	// NoAutoload: the name started with '?', which tells libbpf not to
	// load the program unless asked.
	NoAutoload bool
	// Target is what follows Def.Prefix+"/" ("" for none or no Def).
	Target string
}

// ParseSection matches a program section name against Sections as libbpf
// does. ok is false when no entry matches (s.Def is then nil).
func ParseSection(name string) (s Section, ok bool) {
	s.Name, s.NoAutoload = strings.CutPrefix(name, "?")
	for i := range Sections {
		d := &Sections[i]
		if s.Name == d.Prefix {
			s.Def = d
			return s, true
		}
		if rest, found := strings.CutPrefix(s.Name, d.Prefix+"/"); found && d.Target {
			s.Def, s.Target = d, rest
			return s, true
		}
	}
	return s, false
}

// FormatSection is the inverse of ParseSection: prefix, then "/"+target
// when target is not empty.
func FormatSection(prefix, target string, noAutoload bool) string {
	s := prefix
	if target != "" {
		s += "/" + target
	}
	if noAutoload {
		s = "?" + s
	}
	return s
}

// ProbeSection formats the section of a uprobe (user) or kprobe placed at
// target, at the function's return when ret, sleepable when sleep (uprobes
// only).
func ProbeSection(user, ret, sleep bool, target string) string {
	p := "kprobe"
	if ret {
		p = "kretprobe"
	}
	if user {
		p = "u" + p[1:]
		if sleep {
			p += ".s"
		}
	}
	return FormatSection(p, target, false)
}
