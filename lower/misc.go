package lower

import (
	"sort"
	"strings"

	"modernc.org/token"
)

// posNode adapts a saved position to cc.Node for diagnostics.
type posNode struct{ p token.Position }

func (n posNode) Position() token.Position { return n.p }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// gplCompatible mirrors the kernel's license_is_gpl_compatible().
func gplCompatible(lic string) bool {
	switch lic {
	case "GPL", "GPL v2", "GPL and additional rights", "Dual BSD/GPL", "Dual MIT/GPL", "Dual MPL/GPL":
		return true
	}
	return false
}

// gplOnly lists helpers the kernel offers only to GPL-compatible programs
// (their func_proto has gpl_only = true).
var gplOnly = map[string]bool{
	"bpf_probe_read": true, "bpf_probe_read_user": true, "bpf_probe_read_kernel": true,
	"bpf_probe_read_str": true, "bpf_probe_read_user_str": true, "bpf_probe_read_kernel_str": true,
	"bpf_trace_printk": true, "bpf_trace_vprintk": true, "bpf_perf_event_output": true,
	"bpf_get_current_task": true, "bpf_get_current_task_btf": true, "bpf_probe_write_user": true,
	"bpf_get_stackid": true, "bpf_get_stack": true, "bpf_perf_event_read": true,
	"bpf_perf_event_read_value": true, "bpf_override_return": true, "bpf_send_signal": true,
	"bpf_send_signal_thread": true, "bpf_copy_from_user": true, "bpf_copy_from_user_task": true,
	"bpf_snprintf": true, "bpf_snprintf_btf": true, "bpf_seq_printf": true, "bpf_seq_write": true,
	"bpf_get_func_ip": true, "bpf_get_attach_cookie": true, "bpf_task_pt_regs": true,
	"bpf_find_vma": true, "bpf_get_task_stack": true, "bpf_d_path": true, "bpf_read_branch_records": true,
	"bpf_current_task_under_cgroup": true, "bpf_get_func_arg": true, "bpf_get_func_ret": true,
	"bpf_get_func_arg_cnt": true, "bpf_ima_inode_hash": true, "bpf_ima_file_hash": true,
	"bpf_timer_init": true, "bpf_timer_set_callback": true, "bpf_timer_start": true, "bpf_timer_cancel": true,
}

// knownSection reports whether libbpf derives a program type from sec.
func knownSection(sec string) bool {
	// A leading '?' asks libbpf not to load the program by default.
	sec = strings.TrimPrefix(sec, "?")
	exact := []string{"socket", "sk_reuseport", "kprobe", "kretprobe", "uprobe", "uretprobe", "uprobe.s", "uretprobe.s",
		"tc", "classifier", "action", "tcx/ingress", "tcx/egress", "netkit/primary", "netkit/peer", "xdp", "xdp.frags",
		"perf_event", "cgroup_skb/ingress", "cgroup_skb/egress", "cgroup/skb", "cgroup/sock", "cgroup/sock_create",
		"cgroup/sock_release", "cgroup/post_bind4", "cgroup/post_bind6", "cgroup/dev", "sockops", "sk_skb",
		"sk_skb/stream_parser", "sk_skb/stream_verdict", "sk_msg", "lirc_mode2", "flow_dissector",
		"cgroup/bind4", "cgroup/bind6", "cgroup/connect4", "cgroup/connect6", "cgroup/connect_unix",
		"cgroup/sendmsg4", "cgroup/sendmsg6", "cgroup/sendmsg_unix", "cgroup/recvmsg4", "cgroup/recvmsg6",
		"cgroup/recvmsg_unix", "cgroup/getpeername4", "cgroup/getpeername6", "cgroup/getsockname4",
		"cgroup/getsockname6", "cgroup/sysctl", "cgroup/getsockopt", "cgroup/setsockopt", "syscall",
		"sk_lookup", "struct_ops", "struct_ops.s", "lwt_in", "lwt_out", "lwt_xmit", "lwt_seg6local", "netfilter",
		"kprobe.multi", "kretprobe.multi", "uprobe.multi", "uretprobe.multi", "usdt", "ksyscall", "kretsyscall",
		"raw_tp", "raw_tracepoint", "tp_btf", "fentry", "fexit", "fmod_ret", "lsm", "iter", "tc/ingress", "tc/egress"}
	prefix := []string{"kprobe/", "kretprobe/", "uprobe/", "uretprobe/", "uprobe.s/", "uretprobe.s/", "tracepoint/", "tp/",
		"raw_tp/", "raw_tracepoint/", "raw_tp.w/", "raw_tracepoint.w/", "tp_btf/", "fentry/", "fexit/", "fmod_ret/",
		"fentry.s/", "fexit.s/", "fmod_ret.s/", "lsm/", "lsm.s/", "lsm_cgroup/", "iter/", "iter.s/", "xdp/", "xdp.frags/",
		"struct_ops/", "struct_ops.s/", "kprobe.multi/", "kretprobe.multi/", "uprobe.multi/", "uretprobe.multi/",
		"uprobe.multi.s/", "uretprobe.multi.s/", "usdt/", "usdt.s/", "ksyscall/", "kretsyscall/", "freplace/",
		"socket/", "sk_skb/", "sk_msg/", "sk_lookup/", "sockops/", "cgroup_skb/", "cgroup/", "classifier/", "action/",
		"perf_event/", "syscall/", "tcx/", "netkit/", "lwt_in/", "lwt_out/", "lwt_xmit/", "lwt_seg6local/"}
	for _, e := range exact {
		if sec == e {
			return true
		}
	}
	for _, p := range prefix {
		if strings.HasPrefix(sec, p) {
			return true
		}
	}
	return false
}
