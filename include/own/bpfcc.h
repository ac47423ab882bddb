/*
 * bpfcc.h: bpfcc's convenience header for BPF programs. Always the one
 * embedded in bpfcc.
 *
 * It includes the usual headers: <linux/types.h>, <linux/bpf.h> and
 * <linux/ptrace.h> (struct pt_regs) unless vmlinux.h came first, then <bpf/bpf_helpers.h>, <bpf/bpf_endian.h>,
 * <bpf/bpf_tracing.h> and <bpf/bpf_core_read.h> -- libbpf's where they are
 * installed, bpfcc's otherwise -- and adds:
 *
 *	bpfcc_log2(v)              log2 histogram bucket of a 64-bit value
 *	BPFCC_HIST(name, buckets)  a log2 histogram map, name##_hist
 *	BPFCC_HIST_ADD(name, v)    count v in that histogram
 *	BPFCC_OUTPUT(name, type)   a ring buffer map for events of one type
 *	bpfcc_output(name, ptr)    send *ptr to that ring buffer
 *	bpfcc_reserve(name)        reserve a record in it (then bpf_ringbuf_submit)
 *	bpfcc_count_lost(name)     count a record lost by a direct bpf_ringbuf_* call
 *	BPFCC_STACKID              decl tag: a member holding a bpf_get_stackid result
 *	BPFCC_USTACK, BPFCC_KSTACK decl tag: a __u64 array filled by bpf_get_stack
 *
 * bpfcc's runtime prints maps whose names end in _hist as log2 histograms
 * and decodes ring buffer records by the type given to BPFCC_OUTPUT.
 */
#ifndef __BPFCC_H__
#define __BPFCC_H__

#ifndef __VMLINUX_H__
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/ptrace.h>
#endif
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

/*
 * bpfcc_log2 returns the log2 histogram bucket of v: 0 for 0, otherwise
 * floor(log2(v)) + 1, the number of significant bits. Bucket b > 0 holds
 * the values 2^(b-1) .. 2^b - 1, so there are 65 buckets for 64-bit values:
 * 0, 1, 2-3, 4-7, ... It uses no loop and no branch: a binary search over
 * the bit positions, each step a compare and a shift.
 */
static __always_inline __u32 bpfcc_log2(__u64 v)
{
	__u32 nonzero = v != 0;
	__u32 r, s;

	r = (__u32)(v > 0xffffffffULL) << 5;
	v >>= r;
	s = (__u32)(v > 0xffffULL) << 4;
	v >>= s;
	r |= s;
	s = (__u32)(v > 0xffULL) << 3;
	v >>= s;
	r |= s;
	s = (__u32)(v > 0xfULL) << 2;
	v >>= s;
	r |= s;
	s = (__u32)(v > 0x3ULL) << 1;
	v >>= s;
	r |= s;
	r |= (__u32)(v >> 1);
	return r + nonzero;
}

/*
 * BPFCC_HIST(name, buckets) defines name##_hist, a BPF_MAP_TYPE_ARRAY of
 * buckets __u64 counters indexed by bpfcc_log2 bucket (65 cover every
 * __u64) and one more, last, for the values below 0 of a signed type
 * (printed "(..., 0)", as bpftrace's hist()), and the constant
 * name##_hist_buckets. Use at file scope:
 *
 *	BPFCC_HIST(latency, 32);
 *	...
 *	BPFCC_HIST_ADD(latency, delta_ns);
 */
#define BPFCC_HIST(name, buckets)					\
	enum { name##_hist_buckets = (buckets) };			\
	struct {							\
		__uint(type, BPF_MAP_TYPE_ARRAY);			\
		__uint(max_entries, (buckets) + 1);			\
		__type(key, __u32);					\
		__type(value, __u64);					\
	} name##_hist SEC(".maps")					\
		__attribute__((btf_decl_tag("bpfcc:hist:signed")))

/*
 * BPFCC_HIST_ADD(name, v) adds one to v's bucket of name##_hist; values
 * beyond the last bucket count in the last one, values below 0 (of a
 * signed type: a syscall's -errno) in the negative counter. v is
 * evaluated once. The counter is incremented atomically, so concurrent
 * CPUs do not lose counts.
 */
#define BPFCC_HIST_ADD(name, v)						\
	({								\
		__typeof__(v) ___bpfcc_v = (v);				\
		__u32 ___bpfcc_b;					\
		__u64 *___bpfcc_c;					\
		if ((__typeof__(v))-1 < (__typeof__(v))0 &&		\
		    (__s64)___bpfcc_v < 0) {				\
			___bpfcc_b = (__u32)name##_hist_buckets;	\
		} else {						\
			___bpfcc_b = bpfcc_log2(___bpfcc_v);		\
			if (___bpfcc_b >= (__u32)name##_hist_buckets)	\
				___bpfcc_b = (__u32)name##_hist_buckets - 1; \
		}							\
		___bpfcc_c = bpf_map_lookup_elem(&name##_hist,		\
						 &___bpfcc_b);		\
		if (___bpfcc_c)						\
			__sync_fetch_and_add(___bpfcc_c, 1);		\
	})

/*
 * BPFCC_OUTPUT_BYTES is the size of a BPFCC_OUTPUT ring buffer: a power of
 * two and a multiple of the page size. Define it before including bpfcc.h
 * to change it.
 */
#ifndef BPFCC_OUTPUT_BYTES
#define BPFCC_OUTPUT_BYTES (256 * 1024)
#endif

/*
 * BPFCC_OUTPUT(name, event_type) defines name, a BPF_MAP_TYPE_RINGBUF for
 * records of event_type (usually a struct). A ring buffer map has no value
 * type the kernel would accept, so the record type is recorded in BTF
 * through the pointer variable name##_bpfcc_event (8 bytes of .bss), which
 * is how bpfcc's runtime finds it. It also defines name##_bpfcc_lost, a
 * per-CPU counter of the records that did not fit (bpfcc_output and
 * bpfcc_reserve count them; bpfcc_count_lost(name) counts one by hand),
 * which the runtime reports at exit as lost events. Use at file scope:
 *
 *	struct event { __u32 pid; char comm[16]; };
 *	BPFCC_OUTPUT(events, struct event);
 */
#define BPFCC_OUTPUT(name, event_type)					\
	event_type *name##_bpfcc_event __attribute__((unused));	\
	struct {							\
		__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);		\
		__uint(max_entries, 1);					\
		__type(key, __u32);					\
		__type(value, __u64);					\
	} name##_bpfcc_lost SEC(".maps");				\
	struct {							\
		__uint(type, BPF_MAP_TYPE_RINGBUF);			\
		__uint(max_entries, BPFCC_OUTPUT_BYTES);		\
	} name SEC(".maps")

/*
 * bpfcc_count_lost(name) counts one record lost on the BPFCC_OUTPUT ring
 * buffer name: for programs that call bpf_ringbuf_output or
 * bpf_ringbuf_reserve themselves (those calls count nothing on their own).
 */
#define bpfcc_count_lost(name)						\
	({								\
		__u32 __bpfcc_k = 0;					\
		__u64 *__bpfcc_c = bpf_map_lookup_elem(&name##_bpfcc_lost, &__bpfcc_k); \
		if (__bpfcc_c)						\
			*__bpfcc_c += 1;				\
	})

/*
 * bpfcc_output(name, ptr) copies *ptr into the ring buffer name and wakes
 * the reader; it returns 0 or a negative error (-ENOSPC when full), and
 * counts a failure as a lost event.
 */
#define bpfcc_output(name, ptr)						\
	({								\
		long __bpfcc_r = bpf_ringbuf_output(&name, (ptr), sizeof(*(ptr)), 0); \
		if (__bpfcc_r)						\
			bpfcc_count_lost(name);				\
		__bpfcc_r;						\
	})

/*
 * bpfcc_reserve(name) reserves a record of the ring buffer's event type and
 * returns a pointer to it, or NULL (counted as a lost event) when the
 * buffer is full. Fill it in, then bpf_ringbuf_submit(p, 0).
 */
#define bpfcc_reserve(name)						\
	({								\
		typeof(name##_bpfcc_event) __bpfcc_p =			\
			bpf_ringbuf_reserve(&name, sizeof(*name##_bpfcc_event), 0); \
		if (!__bpfcc_p)						\
			bpfcc_count_lost(name);				\
		__bpfcc_p;						\
	})

/*
 * Stack decl tags. bpfcc's runtime prints the stacks a map's key or value
 * holds as symbolised frames (kernel ones from /proc/kallsyms, user ones
 * from the traced process's mappings, ELF symbols and DWARF lines), or as
 * folded lines with --folded. Members named *stack_id or *stackid are read
 * as bpf_get_stackid results and __u64 arrays named *stack* as
 * bpf_get_stack buffers without a tag; the tags mark other members:
 *
 *	struct key {
 *		__u32 pid;
 *		__s64 where BPFCC_STACKID;	// bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK)
 *		__u64 frames[32] BPFCC_USTACK;	// bpf_get_stack(ctx, k.frames, sizeof(k.frames), BPF_F_USER_STACK)
 *	};
 *
 * On a map they apply to its members whose names contain "stack". A user
 * stack is symbolised in the process of the entry's pid or tgid member, or
 * else in the traced process (-c, --, -p).
 */
#define BPFCC_STACKID __attribute__((btf_decl_tag("bpfcc:stackid")))
#define BPFCC_USTACK __attribute__((btf_decl_tag("bpfcc:ustack")))
#define BPFCC_KSTACK __attribute__((btf_decl_tag("bpfcc:kstack")))

#endif /* __BPFCC_H__ */
