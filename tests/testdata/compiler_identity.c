// Tests: bpfcc presents itself as clang 19 (__clang__ and its version, the
// GNU C 4.2.1 compatibility macros), and __has_builtin and __has_attribute
// answer as clang does for what both support; __typeof_unqual__ names a
// type without its qualifiers.
// RUN: socket
// EXPECT: retval=0
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define CHECK(n, cond) do { if (!(cond)) return n; } while (0)

#if !defined(__clang__) || __clang_major__ != 19 || !defined(__clang_minor__) || !defined(__clang_patchlevel__)
#error not clang 19
#endif
#if __GNUC__ != 4 || __GNUC_MINOR__ != 2 || __GNUC_PATCHLEVEL__ != 1
#error not GNU C 4.2.1
#endif
#if !__has_builtin(__builtin_preserve_type_info) || !__has_builtin(__builtin_btf_type_id) || \
	!__has_builtin(__builtin_bswap32) || !__has_builtin(__sync_fetch_and_add) || \
	__has_builtin(__builtin_no_such_thing)
#error __has_builtin
#endif
#if !__has_attribute(btf_decl_tag) || !__has_attribute(preserve_access_index) || \
	!__has_attribute(__aligned__) || !__has_attribute(cleanup) || __has_attribute(no_such_attribute)
#error __has_attribute
#endif
#if !defined(__has_include) || !__has_include(<linux/bpf.h>) || __has_include(<no/such/header.h>)
#error __has_include
#endif

const volatile int limit = 7;

SEC("socket")
int compiler_identity(struct __sk_buff *skb)
{
	__typeof_unqual__(limit) n = limit;

	n += 1;
	CHECK(1, n == 8);
	CHECK(2, sizeof(__clang_version__) > 1 && __clang_major__ * 100 + __clang_minor__ >= 1901);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

// CHECK: [[P:r[0-9]]] = limit ll
// CHECK: r[[N:[0-9]]] = *(u32 *)([[P]] + 0)
// CHECK: w[[N]] += 1
// CHECK-NEXT: if w[[N]] == 8 goto
