// Tests: branches are laid out by clang's static heuristics when nothing
// else decides: pointers found equal is the unlikely arm, placed out of
// line, so that the verifier walks the other arm first. In an unrolled
// walk up a dentry chain that prepends each name to a buffer
// (inspektor-gadget's get_path_str), the arm that adds a name then
// reaches the next step with the wider offset, recorded first, and the
// arm that skips a root (dentry == parent) arrives with a narrower one
// and is pruned; walked the other way round, each count of names added
// was a state of its own (-mcpu=v1: 40,896 instructions verified against
// clang's 2,603, now 2,403; TestVerifierWalksLikelyArmFirst holds it to
// clang's).
// RUN: load-only
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#define STEPS 40
#define HALF (1 << 12)

struct qstr {
	const unsigned char *name;
} __attribute__((preserve_access_index));

struct dentry {
	struct dentry *d_parent;
	struct qstr d_name;
} __attribute__((preserve_access_index));

struct bpf_raw_tracepoint_args;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, char[2 * HALF]);
} bufs SEC(".maps");

SEC("raw_tp/sys_enter")
int path_walk_order(unsigned long long *ctx)
{
	struct dentry *d = (void *)ctx[0], *root = (void *)ctx[1];
	__u32 off = HALF, zero = 0;
	char sep = '/';
	char *b = bpf_map_lookup_elem(&bufs, &zero);

	if (!b)
		return 0;
#pragma unroll
	for (int i = 0; i < STEPS; i++) {
		struct dentry *up = BPF_CORE_READ(d, d_parent);
		const unsigned char *name;
		int n;

		if (d == up) {
			/* a mount's root: go on from the mount point */
			d = root;
			continue;
		}
		name = BPF_CORE_READ(d, d_name.name);
		n = bpf_probe_read_kernel_str(&b[off & (HALF - 1)], 256, name);
		if (n <= 1)
			break;
		bpf_probe_read_kernel(&b[(off - 1) & (HALF - 1)], 1, &sep);
		off -= n;
		d = up;
	}
	bpf_probe_read_kernel_str(b, 256, &b[off & (HALF - 1)]);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// The equality test jumps to the skipping arm; the arm with the name read
// falls through:
// CHECK: path_walk_order: (section raw_tp/sys_enter,
// CHECK: if r{{[0-9]}} == r{{[0-9]}} goto
// CHECK-NEXT: r{{[0-9]}} = r10
