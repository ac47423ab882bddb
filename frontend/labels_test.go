package frontend

import "testing"

func TestRewriteLocalLabels(t *testing.T) {
	in := "#define gt5(x) ({ __label__ yes, no; \\\n" +
		"\tasm goto(\"if %[v] > 5 goto %l[yes]\" :: [v] \"r\"(x) :: yes); \\\n" +
		"\tyes: 1; })\n" +
		"#define obj ({ __label__ l; \\\n goto l; l: 0; })\n" +
		"#define one_line ({ __label__ l; goto l; l: 0; })\n" +
		"int yes;\n"
	want := "#define gt5(x) __bpfcc_lblcall(__bpfcc_lbl_gt5, __COUNTER__, x)\n" +
		"#define __bpfcc_lbl_gt5(__bpfcc_id, x) ({ __label__ yes ## _bpfcc_ ## __bpfcc_id, no ## _bpfcc_ ## __bpfcc_id;  " +
		"\tasm goto(\"if %[v] > 5 goto %l[yes]\" :: [v] \"r\"(x) :: yes ## _bpfcc_ ## __bpfcc_id); \\\n" +
		"\tyes ## _bpfcc_ ## __bpfcc_id: 1; })\n" +
		"#define obj __bpfcc_lblcall0(__bpfcc_lbl_obj, __COUNTER__)\n" +
		"#define __bpfcc_lbl_obj(__bpfcc_id) ({ __label__ l ## _bpfcc_ ## __bpfcc_id;   goto l ## _bpfcc_ ## __bpfcc_id; l ## _bpfcc_ ## __bpfcc_id: 0; })\n" +
		"#define one_line ({ __label__ l; goto l; l: 0; })\n" +
		"int yes;\n"
	if got := string(rewriteLocalLabels([]byte(in))); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
