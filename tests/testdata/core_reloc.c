// Tests: CO-RE relocations. The local task_struct below has the kernel's
// field names in an order and at offsets of its own; every access is a
// relocation that the loader rewrites against the running kernel's BTF,
// so the reads find the real fields. Queries for fields, types and enum
// values that do not exist are answered by the loader as well. The record
// points to itself (real_parent), which cc alone cannot represent with an
// attribute: the frontend turns the attribute into a region.
// RUN: syscall
// PACKET: none
// EXPECT: retval=0
// NONDET: parent_tgid
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct task_struct___local {
	char comm[16];
	int tgid;
	struct task_struct___local *real_parent;
	int pid;
	int no_such_field;
	struct {
		unsigned long long no_such_nested;
	} nested;
} __attribute__((preserve_access_index));

struct no_such_type___local {
	int x;
} __attribute__((preserve_access_index));

enum bpf_map_type___local {
	BPF_MAP_TYPE_ARRAY___local = 99,
	BPF_MAP_TYPE_NO_SUCH___local = 4242,
};

__u32 parent_tgid;

SEC("syscall")
int core_reloc(void *ctx)
{
	struct task_struct___local *t = (void *)bpf_get_current_task();
	__u64 id = bpf_get_current_pid_tgid();
	char comm[16] = {}, want[16] = {};

	if (BPF_CORE_READ(t, pid) != (__u32)id)
		return 1;
	if (BPF_CORE_READ(t, tgid) != id >> 32)
		return 2;
	parent_tgid = BPF_CORE_READ(t, real_parent, tgid);
	if (parent_tgid == 0)
		return 3;
	if (bpf_core_field_exists(t->no_such_field) || bpf_core_field_exists(t->nested.no_such_nested))
		return 4;
	if (!bpf_core_field_exists(t->tgid) || !bpf_core_field_exists(struct task_struct___local, pid))
		return 5;
	if (bpf_core_field_size(t->comm) != 16 || bpf_core_field_size(t->pid) != 4)
		return 6;
	if (bpf_core_field_offset(t->pid) < 64 || bpf_core_field_offset(t->tgid) != bpf_core_field_offset(t->pid) + 4)
		return 7;
	if (!bpf_core_type_exists(struct task_struct___local) || bpf_core_type_exists(struct no_such_type___local))
		return 8;
	if (bpf_core_type_size(struct task_struct___local) < 1000)
		return 9;
	if (bpf_core_enum_value(enum bpf_map_type___local, BPF_MAP_TYPE_ARRAY___local) != BPF_MAP_TYPE_ARRAY)
		return 10;
	if (bpf_core_enum_value_exists(enum bpf_map_type___local, BPF_MAP_TYPE_NO_SUCH___local))
		return 11;
	if (bpf_core_type_id_local(struct task_struct___local) == 0 || bpf_core_type_id_kernel(struct task_struct___local) == 0)
		return 13;
	bpf_get_current_comm(want, sizeof(want));
	BPF_CORE_READ_STR_INTO(&comm, t, comm);
	for (int i = 0; i < 16; i++)
		if (comm[i] != want[i])
			return 12;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: ; CO-RE <byte_off> struct task_struct___local::pid (0:3)
// CHECK: call 113
// CHECK: ; CO-RE <byte_off> struct task_struct___local::tgid (0:1)
// CHECK: ; CO-RE <byte_off> struct task_struct___local::real_parent (0:2)
// CHECK: ; CO-RE <field_exists> struct task_struct___local::no_such_field (0:4)
// CHECK: ; CO-RE <field_exists> struct task_struct___local::nested.no_such_nested (0:5:0)
