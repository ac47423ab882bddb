package randgen

// Op is an expression node's kind.
type Op int

const (
	OpConst   Op = iota
	OpVar        // scalar variable
	OpIndex      // Var[Args[0]]; Args[0] is masked into range by construction
	OpField      // Var.Field
	OpUnary      // Sub is "-", "~", "!" or "+"
	OpBinary     // arithmetic, bitwise, shift or comparison operator Sub
	OpLogical    // Sub is "&&" or "||"
	OpCond       // Args[0] ? Args[1] : Args[2]
	OpComma      // Args[0], Args[1]
	OpCast       // (T)Args[0]
	OpAssign     // Args[0] Sub Args[1]; Sub is "=" or a compound operator
	OpIncDec     // Sub is "++" or "--"; Post selects x++
	OpCall       // Fn(Args...)
	OpSafe       // a prelude helper such as sdiv32(Args[0], Args[1]); Sub names it
)

// Expr is an expression; T is its type, computed when it is built.
type Expr struct {
	Op    Op
	Sub   string
	T     Type
	V     uint64 // OpConst
	Var   *Var
	Field *Field
	Fn    *Func
	Args  []*Expr
	Post  bool
}

// VarKind distinguishes scalars, arrays and structs.
type VarKind int

const (
	Scalar VarKind = iota
	Array
	Struct
)

// Var is a variable: a local, a parameter, a loop counter, or one of the
// read-only inputs (in[], len, skb->len).
type Var struct {
	Name     string
	Kind     VarKind
	T        Type // scalar or element type
	N        int  // array length
	S        *StructType
	Volatile bool
	ReadOnly bool
}

// Field is a struct member, possibly a bit-field (Width > 0).
type Field struct {
	Name  string
	Base  Type // declared type
	Width int
	Idx   int
}

// Type is the member's type as an expression operand.
func (f *Field) Type() Type {
	if f.Width == 0 {
		return f.Base
	}
	return Type{Name: f.Base.Name, Bits: f.Width, Signed: f.Base.Signed}
}

// StructType is a struct definition.
type StructType struct {
	Name   string
	Fields []*Field
}

// StmtKind is a statement's kind.
type StmtKind int

const (
	SExpr     StmtKind = iota // E;
	SIf                       // if (E) Body else Else
	SFor                      // for (int Var = 0; Var < N; Var++) Body
	SSwitch                   // switch (E) { Cases }
	SBlock                    // { Body }
	SDecl                     // T Var = E; (block scope)
	SBreak                    // break;
	SContinue                 // continue;
	SCopy                     // Var = Src; (struct copy)
	SReturn                   // return E;
)

// Stmt is a statement.
type Stmt struct {
	Kind  StmtKind
	E     *Expr
	Body  []*Stmt
	Else  []*Stmt
	Var   *Var
	Src   *Var
	N     int
	Cases []*Case
}

// Case is one switch arm; Default arms ignore Val.
type Case struct {
	Default bool
	Val     uint64
	Body    []*Stmt
	Break   bool
}

// Init initialises a top-level or function-level declaration: Elems for
// scalars (one) and arrays (a prefix), Fields (by index, nil = zero) for
// structs.
type Init struct {
	Elems  []*Expr
	Fields []*Expr
}

// Decl is a declaration at the top of a function body.
type Decl struct {
	Var  *Var
	Init Init
}

// Func is a helper function (or, with Main set, the program itself).
type Func struct {
	Name     string
	Ret      Type
	Params   []*Var
	Decls    []*Decl
	Body     []*Stmt
	NoInline bool
	Main     bool
}
