// Tests: a small loop in a function over the unroller's size budget (4,000
// IR instructions) is still unrolled, as clang's unroller (which has no
// function budget) unrolls it: a walk up to 6 parents counting them, whose
// count a test after a second loop makes precise. Left a loop, the count
// reached the test as 1..6 and the verifier walked the second loop once per
// count (falco's store_cgroup_subsys in its large exec programs: 2.15x
// clang's verified instructions; the reduction 1,623 -> 664, clang 636).
// The padding is a block the loader's constant `pad` (0) makes dead.
// RUN: load-only
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define SAFE(x) ((x) & (64 * 1024 - 1))

struct aux {
	__u8 data[128 * 1024];
	__u64 pos;
	__u8 lpos;
};

struct node {
	struct node *parent;
	const char *name;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct aux);
} auxm SEC(".maps");

const volatile int pad = 0;
const volatile __u64 start = 0;

#define P1 *(__u64 *)&a->data[SAFE(a->pos)] = bpf_get_prandom_u32(); a->pos += 8;
#define P8 P1 P1 P1 P1 P1 P1 P1 P1
#define P64 P8 P8 P8 P8 P8 P8 P8 P8

SEC("tracepoint/syscalls/sys_enter_getpid")
int unroll_large_function(void *ctx)
{
	__u32 key = 0;
	struct aux *a = bpf_map_lookup_elem(&auxm, &key);
	struct node *kn = (struct node *)start;
	unsigned long ptrs[6] = {0};
	__u16 total = 0;
	__u8 comps = 0;

	if (!a)
		return 0;
	if (pad) {
		P64 P64 P64 P64 P64 P64 P64 P64 P64 P64 P64 P64
	}
	for (int k = 0; k < 6; ++k) {
		if (!kn)
			break;
		comps++;
		bpf_probe_read_kernel(&ptrs[k], sizeof(ptrs[k]), &kn->name);
		bpf_probe_read_kernel(&kn, sizeof(kn), &kn->parent);
	}
	for (int k = 5; k >= 0; --k) {
		if (ptrs[k]) {
			int n = bpf_probe_read_kernel_str(&a->data[SAFE(a->pos)], 65535, (char *)ptrs[k]);
			if (n > 0) {
				a->pos += n;
				total += n;
			}
			a->data[SAFE(a->pos - 1)] = '/';
		}
	}
	if (comps <= 1) {
		a->data[SAFE(a->pos)] = 0;
		a->pos += 1;
		total += 1;
	} else
		a->data[SAFE(a->pos - 1)] = 0;
	*(__u16 *)&a->data[SAFE(a->lpos)] = total;
	a->lpos += 2;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// Neither loop is left: no test of a counter against 6 or 0 jumps back.
// CHECK-NOT: < 6 goto -
// CHECK-NOT: s>= 0 goto -
