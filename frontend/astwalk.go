package frontend

import (
	"reflect"
	"sync"

	"modernc.org/cc/v4"
)

// WalkAST visits node and the AST nodes under it, depth first in field
// order, until visit returns false: the exported fields that point to cc's
// node structs, directly or through an interface such as cc.ExpressionNode
// (the syntax tree, not the resolved links). It reports whether the walk
// went to the end.
func WalkAST(node any, visit func(any) bool) bool {
	return walkAST(reflect.ValueOf(node), visit)
}

func walkAST(v reflect.Value, visit func(any) bool) bool {
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return true
	}
	if !visit(v.Interface()) {
		return false
	}
	s := v.Elem()
	for _, f := range astFieldsOf(s.Type()) {
		fv := s.Field(f.index)
		if f.iface {
			if fv.IsNil() {
				continue
			}
			fv = fv.Elem()
			if fv.Kind() != reflect.Pointer || fv.Type().Elem().PkgPath() != ccPkg {
				continue
			}
		}
		if !walkAST(fv, visit) {
			return false
		}
	}
	return true
}

// astField is a field of a node struct that may lead to another node.
type astField struct {
	index int
	iface bool // an interface of cc's: its dynamic type decides
}

// astFields caches astFieldsOf: reading a struct's fields through reflect
// on every node was a tenth of the compile of a program with big macro
// expansions.
var astFields sync.Map // reflect.Type -> []astField

func astFieldsOf(t reflect.Type) []astField {
	if fs, ok := astFields.Load(t); ok {
		return fs.([]astField)
	}
	var fs []astField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		switch {
		case !f.IsExported():
		case f.Type.Kind() == reflect.Interface && f.Type.PkgPath() == ccPkg:
			fs = append(fs, astField{i, true})
		case f.Type.Kind() == reflect.Pointer && f.Type.Elem().PkgPath() == ccPkg:
			fs = append(fs, astField{i, false})
		}
	}
	astFields.Store(t, fs)
	return fs
}

var ccPkg = reflect.TypeOf(cc.PrimaryExpression{}).PkgPath()
