// Rejected: 128-bit multiplication, division and shifts by a variable
// amount, which bpfcc does not expand (clang calls compiler-rt helpers
// that BPF cannot call, "A call to built-in function '__multi3' is not
// supported"); a diagnostic each, no internal error.
// ERROR: 13:15: 128-bit multiplication is not supported
// ERROR: 14:15: 128-bit division is not supported
// ERROR: 15:15: shifting a 128-bit integer by a variable amount is not supported
volatile unsigned long g;

__attribute__((section("socket"), used)) int prog(void *ctx)
{
	unsigned __int128 a = g, b = g;
	return (int)(a * b) +
	       (int)(a / b) +
	       (int)(a << g);
}

char _license[] __attribute__((section("license"), used)) = "GPL";
