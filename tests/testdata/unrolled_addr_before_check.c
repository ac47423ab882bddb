// Tests: a two-trip loop that calls a helper is unrolled, as clang unrolls
// it, so ctx->args[i] reads the context at constant offsets (kept a loop,
// ctx + (i << 3): "dereference of modified ctx ptr"); and in each copy the
// address &b->args[b->offset], computed before the check of b->offset and
// assigned in both copies, moves below the check to the helper that uses
// it (tracee's add_u64_elements_to_buf: "R1 unbounded memory access").
// RUN: load-only
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct buf { char args[1024]; unsigned int offset; };
struct { __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY); __uint(max_entries, 1);
         __type(key, unsigned int); __type(value, struct buf); } bufs SEC(".maps");

SEC("raw_tracepoint/x")
int unrolled_addr_before_check(struct bpf_raw_tracepoint_args *ctx)
{
    unsigned int zero = 0;
    struct buf *b = bpf_map_lookup_elem(&bufs, &zero);
    if (!b)
        return 0;
    for (int i = 0; i < 2; i++) {
        void *addr = &b->args[b->offset];
        if (b->offset > sizeof(b->args) - 8)
            return 0;
        bpf_probe_read(addr, 8, (void *) ctx->args[i]);
        b->offset += 8;
    }
    return 0;
}
char LICENSE[] SEC("license") = "GPL";

// CHECK: unrolled_addr_before_check: (section raw_tracepoint/x,
// CHECK-NOT: goto -
