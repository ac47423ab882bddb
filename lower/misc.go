package lower

import (
	"sort"

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
