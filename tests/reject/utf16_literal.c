// Rejected: a UTF-16 string literal (u""), which cc's scanner does not know;
// the diagnostic names the prefix and the L"" alternative.
// ERROR: 8:31: u"..." literals (char16_t) are not supported
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* line 7 */
const unsigned short name[] = u"bpf";

SEC("socket")
int utf16_literal(struct __sk_buff *skb)
{
	return name[1];
}

char LICENSE[] SEC("license") = "GPL";
