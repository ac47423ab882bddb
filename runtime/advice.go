package runtime

import (
	"regexp"
	"strings"
	"sync"
)

// verifierAdvice maps what the verifier says to what to change in the
// source, first match wins. Compiled on first use: package-level
// regular expressions are most of the command's start-up.
var verifierAdvice = sync.OnceValue(func() []verifierRule {
	return []verifierRule{
		{regexp.MustCompile(`map_value_or_null`), "bpf_map_lookup_elem returns NULL when the key is not in the map: check the pointer before using it (if (!v) return 0;)"},
		{regexp.MustCompile(`_or_null'`), "the helper's result may be NULL: check the pointer before using it"},
		{regexp.MustCompile(`too complex|program is too large`), "the verifier follows every path and gave up: give loops constant bounds, move work into a separate __noinline function, or use bpf_loop(); fewer branches per iteration help too"},
		{regexp.MustCompile(`back-edge|infinite loop detected`), "the verifier cannot see this loop end: give it a constant bound, or use bpf_loop()"},
		{regexp.MustCompile(`unbounded memory access|unbounded min value|min value is negative|min value is outside|max value is outside|value is outside of the allowed memory range`), "an index or length is not known to be in range: check it against the size before the access (if (i >= N) return 0;), in an unsigned variable"},
		{regexp.MustCompile(`invalid indirect read from stack|invalid read from stack`), "a variable read or passed to a helper is not fully initialised: set every byte first (= {} or __builtin_memset), struct padding included"},
		{regexp.MustCompile(`invalid access to packet`), "check the packet bounds before reading (if (data + N > data_end) return XDP_PASS;)"},
		{regexp.MustCompile(`invalid mem access 'scalar'`), "a number is used as a pointer: read memory the program does not own through bpf_probe_read_user/bpf_probe_read_kernel"},
		{regexp.MustCompile(`!read_ok`), "a register is read before it is set: check the arguments of the call there"},
		{regexp.MustCompile(`unknown func`), "this kernel has no such helper, or not for this program type"},
	}
})

type verifierRule struct {
	re     *regexp.Regexp
	advice string
}

// Advice returns what to change in the source for the verifier's reason,
// or "" when bpfcc has no advice for it. The reason decides first; the
// log's tail only when no rule knows the reason (its statistics line,
// "processed N insns (limit M)", is in every log and says nothing).
func (r *VerifierReport) Advice() string {
	for _, text := range []string{r.Reason, strings.Join(r.LogTail(), "\n")} {
		for _, a := range verifierAdvice() {
			if a.re.MatchString(text) {
				return a.advice
			}
		}
	}
	return ""
}
