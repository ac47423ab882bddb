// Tests: a bound checked on a value loaded through one pointer holds for
// the same value loaded through another that is the first plus a
// constant, when the second is assigned in each copy of an unrolled loop:
// tracee's save_to_submit_buf, inlined into the six copies of its argument
// loop, checks buf->offset through the event pointer and indexes with it
// loaded through buf = &event->args_buf. Address folding followed buf only
// where it was assigned once; it now follows the assignments that reach
// each use, the two loads are one, and the index is bounded (the previous
// binary's object: "R2 unbounded memory access"; clang's loads).
// RUN: load-only
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
typedef unsigned char u8; typedef unsigned int u32; typedef unsigned long long u64;
#define ARGS_BUF_SIZE 32000
typedef struct { u8 argnum; char args[ARGS_BUF_SIZE]; u32 offset; } args_buffer_t;
typedef struct { u64 ctx[18]; args_buffer_t args_buf; u64 task; u64 param_types; } event_data_t;
typedef struct { unsigned long args[6]; } args_t;
struct { __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY); __uint(max_entries, 1);
         __type(key, u32); __type(value, event_data_t); } event_data_map SEC(".maps");

static __always_inline int save_to_submit_buf(args_buffer_t *buf, void *ptr, u32 size, u8 index)
{
    if (size == 0) return 0;
    asm volatile("" ::: "memory");
    if (buf->offset > ARGS_BUF_SIZE - 1) return 0;
    buf->args[buf->offset] = index;
    if (buf->offset > ARGS_BUF_SIZE - (110 + 1)) return 0;
    if (bpf_probe_read(&(buf->args[buf->offset + 1]), size, ptr) == 0) {
        buf->offset += size + 1; buf->argnum++; return 1;
    }
    return 0;
}
static __always_inline int save_str_to_buf(args_buffer_t *buf, void *ptr, u8 index)
{
    if (buf->offset > ARGS_BUF_SIZE - 1) return 0;
    buf->args[buf->offset] = index;
    if (buf->offset > ARGS_BUF_SIZE - (4096 + 1 + sizeof(int))) return 0;
    int sz = bpf_probe_read_str(&(buf->args[buf->offset + 1 + sizeof(int)]), 4096, ptr);
    if (sz > 0) { buf->offset += sz + sizeof(int) + 1; buf->argnum++; return 1; }
    return 0;
}
struct { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 1); __type(key, u32); __type(value, args_t); } args_map SEC(".maps");
SEC("raw_tracepoint/sys_exit")
int bound_reload_unrolled(struct bpf_raw_tracepoint_args *ctx)
{
    u32 zero = 0;
    event_data_t *event = bpf_map_lookup_elem(&event_data_map, &zero);
    if (!event) return 0;
    args_t *args = bpf_map_lookup_elem(&args_map, &zero); if (!args) return 0;
    unsigned int rc = 0, arg_num = 0;
#pragma unroll
    for (int i = 0; i < 6; i++) {
        int size = 0;
        u8 type = (event->param_types >> (8 * i)) & 0xFF;
        switch (type) {
        case 1: size = 4; break;
        case 2: size = 8; break;
        case 10: rc = save_str_to_buf(&(event->args_buf), (void *) args->args[i], i); break;
        }
        switch (type) {
        case 0: case 10: break;
        default: rc = save_to_submit_buf(&(event->args_buf), (void *) &(args->args[i]), size, i); break;
        }
        if (rc > 0) { arg_num++; rc = 0; }
    }
    return arg_num;
}
char LICENSE[] SEC("license") = "GPL";

// CHECK: bound_reload_unrolled: (section raw_tracepoint/sys_exit,
