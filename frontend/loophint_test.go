package frontend

import "testing"

// Each loop pragma spelling reaches its loop as a label LoopUnroll
// answers, including through macros under #if (the live branch only), a
// _Pragma in a macro's body (expanded twice in one function: two labels),
// one whose operand a macro makes from its parameter, and counts that
// are expressions.
func TestLoopUnroll(t *testing.T) {
	src := `#define DO_PRAGMA_(X) _Pragma(#X)
#define __pragma_loop_unroll_full DO_PRAGMA_(clang loop unroll(full))
#define __pragma_loop_no_unroll DO_PRAGMA_(GCC unroll 1)
#define UNROLL_COUNT 8
#define pragma_count DO_PRAGMA_(clang loop unroll_count(UNROLL_COUNT))
#define STRINGIFY(a) #a
#define SUM(n) _Pragma(STRINGIFY(unroll(n))) for (int i = 0; i < (n); i++) s += i;
#define BODY "abcdef"
int f(int n) {
	int s = 0;
#ifdef NO_UNROLL
	__pragma_loop_no_unroll
#else
	__pragma_loop_unroll_full
#endif
	for (int i = 0; i < 4; i++) s += i;
	__pragma_loop_no_unroll
	while (n--) s++;
	pragma_count
	for (int i = 0; i < 4; i++) s += i;
#pragma unroll 4
	do s++; while (s < 3);
#pragma nounroll
	for (;;) break;
	_Pragma("unroll") for (int i = 0; i < 2; i++) s++;
#pragma GCC unroll 65534
	for (int i = 0; i < 2; i++) s++;
	SUM(6)
	SUM(UNROLL_COUNT * 2)
#pragma unroll (sizeof(BODY))
	for (int i = 0; i < 7; i++) s++;
#pragma unroll (n)
	for (int i = 0; i < 7; i++) s++;
	return s;
}
`
	u, err := Parse("x.c", Options{Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for l := u.AST.TranslationUnit; l != nil; l = l.TranslationUnit {
		fd := l.ExternalDeclaration.FunctionDefinition
		if fd == nil {
			continue
		}
		for bl := fd.CompoundStatement.BlockItemList; bl != nil; bl = bl.BlockItemList {
			st := bl.BlockItem.Statement
			if st == nil || st.LabeledStatement == nil {
				continue
			}
			n, ok := u.LoopUnroll(st.LabeledStatement.Token.SrcStr())
			if !ok {
				t.Errorf("label %s: no loop pragma", st.LabeledStatement.Token.SrcStr())
			}
			got = append(got, n)
		}
	}
	want := []int{0, -1, 8, 4, -1, 0, 65534, 6, 16, 7, 0}
	if len(got) != len(want) {
		t.Fatalf("pragmas %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("pragmas %v, want %v", got, want)
			break
		}
	}
}
