// A variable in a section named like the license section (as a duplicated
// string literal makes it): a diagnostic, not an error of the ELF writer.
// ERROR: 7: the section is reserved
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _lic[] SEC("license" "license") = "GPL";
