package runtime

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cilium/ebpf/btf"
)

// ErrDecode reports bytes that do not fit the BTF type they are decoded with.
var ErrDecode = errors.New("decode")

// maxDecodeDepth bounds recursion through nested BTF types, so that a
// malformed or cyclic type graph cannot exhaust the stack.
const maxDecodeDepth = 32

// Field is one named member of a decoded struct or union.
type Field struct {
	Name  string
	Value any
}

// Record is a decoded struct or union: its members in declaration order.
// Values are int64, uint64, bool, float64, string (char arrays holding text,
// enum names, pointers as hex), Bytes (other char arrays), []any (other
// arrays) or Record.
type Record []Field

// MarshalJSON encodes r as a JSON object that keeps member order.
func (r Record) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range r {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.Name)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Decode decodes b as a value of type t (little-endian, as the BPF target on
// this host lays it out). A nil t decodes to a hex string of b.
func Decode(t btf.Type, b []byte) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("%w: malformed type %v: %v", ErrDecode, t, r)
		}
	}()
	if t == nil {
		return hexString(b), nil
	}
	return decode(t, b, 0)
}

func hexString(b []byte) string {
	return "0x" + fmt.Sprintf("%x", b)
}

func decode(t btf.Type, b []byte, depth int) (any, error) {
	if depth > maxDecodeDepth {
		return nil, fmt.Errorf("%w: type nesting deeper than %d", ErrDecode, maxDecodeDepth)
	}
	t = skipQualifiers(t)
	size, err := btf.Sizeof(t)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDecode, err)
	}
	if size > len(b) {
		return nil, fmt.Errorf("%w: %s needs %d bytes, have %d", ErrDecode, typeName(t), size, len(b))
	}
	switch t := t.(type) {
	case *btf.Int:
		return decodeInt(t.Encoding&btf.Signed != 0, t.Encoding&btf.Bool != 0, b[:t.Size]), nil
	case *btf.Enum:
		raw := decodeInt(t.Signed, false, b[:t.Size])
		for _, v := range t.Values {
			if (t.Signed && int64(v.Value) == raw) || (!t.Signed && v.Value == raw) {
				return v.Name, nil
			}
		}
		return raw, nil
	case *btf.Pointer:
		return fmt.Sprintf("0x%x", binary.LittleEndian.Uint64(b)), nil
	case *btf.Float:
		if t.Size == 4 {
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), nil
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
	case *btf.Array:
		if size > maxDecodedArray {
			return newBlob(t, b[:size]), nil
		}
		return decodeArray(t, b, depth)
	case *btf.Datasec:
		return decodeDatasec(t, b, depth)
	case *btf.Struct:
		return decodeMembers(t.Members, b, depth)
	case *btf.Union:
		return decodeMembers(t.Members, b, depth)
	default:
		return hexString(b[:size]), nil
	}
}

// skipQualifiers strips typedefs, const, volatile, restrict and type tags.
func skipQualifiers(t btf.Type) btf.Type {
	for i := 0; i < maxDecodeDepth; i++ {
		switch q := t.(type) {
		case *btf.Typedef:
			t = q.Type
		case *btf.Const:
			t = q.Type
		case *btf.Volatile:
			t = q.Type
		case *btf.Restrict:
			t = q.Type
		case *btf.TypeTag:
			t = q.Type
		default:
			return t
		}
	}
	return t
}

func typeName(t btf.Type) string {
	if n := t.TypeName(); n != "" {
		return n
	}
	return fmt.Sprintf("%T", t)
}

// decodeInt returns int64 for signed integers, bool for booleans and uint64
// otherwise; b holds 1, 2, 4, 8 or 16 bytes (16 keeps the low half).
func decodeInt(signed, isBool bool, b []byte) any {
	var u uint64
	switch len(b) {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(binary.LittleEndian.Uint16(b))
	case 4:
		u = uint64(binary.LittleEndian.Uint32(b))
	default:
		u = binary.LittleEndian.Uint64(b)
	}
	if isBool {
		return u != 0
	}
	if !signed {
		return u
	}
	shift := 64 - 8*min(len(b), 8)
	return int64(u<<shift) >> shift
}

// isCharElem reports whether an array element type is a C character type
// spelled as such (char, signed char, unsigned char, or an int marked as a
// character); typedefs such as __u8 keep their numeric meaning.
func isCharElem(t btf.Type) bool {
	for {
		switch q := t.(type) {
		case *btf.Const:
			t = q.Type
			continue
		case *btf.Volatile:
			t = q.Type
			continue
		}
		break
	}
	i, ok := t.(*btf.Int)
	return ok && i.Size == 1 && (i.Encoding&btf.Char != 0 || strings.HasSuffix(i.Name, "char"))
}

func decodeArray(t *btf.Array, b []byte, depth int) (any, error) {
	if isCharElem(t.Type) {
		s := b[:t.Nelems]
		if text, ok := asText(s); ok {
			return text, nil
		}
		return Bytes(bytes.Clone(s)), nil
	}
	esize, err := btf.Sizeof(t.Type)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDecode, err)
	}
	out := make([]any, 0, t.Nelems)
	for i := 0; i < int(t.Nelems); i++ {
		v, err := decode(t.Type, b[i*esize:], depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// maxDecodedArray is the largest array decoded element by element; larger
// ones become a Blob, a one-line summary (a 16 MiB char array printed as a
// 32 MB line, and an int array of millions of elements would be as many
// values in memory).
const maxDecodedArray = 4096

// Blob summarises an array too large to print: its type, size, how many of
// its bytes are not zero, and its first bytes.
type Blob struct {
	Type    string `json:"type"`
	Size    int    `json:"size"`
	NonZero int    `json:"nonzero"`
	Head    string `json:"head"`
}

const blobHead = 16

func newBlob(t btf.Type, b []byte) Blob {
	nz := 0
	for _, c := range b {
		if c != 0 {
			nz++
		}
	}
	return Blob{Type: typeString(t), Size: len(b), NonZero: nz, Head: hexString(b[:min(len(b), blobHead)])}
}

func (b Blob) String() string {
	return fmt.Sprintf("<%s: %d bytes, %d not zero, first %d: %s>", b.Type, b.Size, b.NonZero, min(b.Size, blobHead), b.Head)
}

// typeString spells a BTF type as C would, for summaries: "char[16777216]".
func typeString(t btf.Type) string {
	var dims string
	for i := 0; i < maxDecodeDepth; i++ {
		a, ok := skipQualifiers(t).(*btf.Array)
		if !ok {
			break
		}
		dims += fmt.Sprintf("[%d]", a.Nelems)
		t = a.Type
	}
	t = skipQualifiers(t)
	name := t.TypeName()
	switch t.(type) {
	case *btf.Struct:
		name = "struct " + name
	case *btf.Union:
		name = "union " + name
	case *btf.Enum:
		name = "enum " + name
	}
	if t.TypeName() == "" {
		name = strings.TrimPrefix(fmt.Sprintf("%T", t), "*btf.")
	}
	return name + dims
}

// decodeDatasec decodes a data section (.bss, .data, .rodata) as a record
// of its variables by name, from the DATASEC's BTF.
func decodeDatasec(t *btf.Datasec, b []byte, depth int) (any, error) {
	rec := make(Record, 0, len(t.Vars))
	for _, vs := range t.Vars {
		v, ok := vs.Type.(*btf.Var)
		if !ok {
			continue
		}
		end := uint64(vs.Offset) + uint64(vs.Size)
		if end > uint64(len(b)) {
			return nil, fmt.Errorf("%w: variable %s at offset %d (%d bytes) beyond %d bytes", ErrDecode, v.Name, vs.Offset, vs.Size, len(b))
		}
		val, err := decode(v.Type, b[vs.Offset:end], depth+1)
		if err != nil {
			return nil, fmt.Errorf("variable %s: %w", v.Name, err)
		}
		rec = append(rec, Field{v.Name, val})
	}
	return rec, nil
}

// Bytes is a char array that is not text: its bytes, printed as "0x" and
// two hex digits per byte in memory order (not a number), in text and JSON.
type Bytes []byte

func (b Bytes) String() string { return hexString(b) }

// MarshalJSON encodes b as its hex string.
func (b Bytes) MarshalJSON() ([]byte, error) { return json.Marshal(hexString(b)) }

// asText returns a char array as a string when it holds text: printable
// UTF-8 (tabs and newlines allowed) up to the first NUL and only NULs after
// it, or printable all along. Anything else would lose bytes as a string.
func asText(s []byte) (string, bool) {
	n := bytes.IndexByte(s, 0)
	if n < 0 {
		n = len(s)
	} else if bytes.ContainsFunc(s[n:], func(r rune) bool { return r != 0 }) {
		return "", false
	}
	t := s[:n]
	if !utf8.Valid(t) {
		return "", false
	}
	for _, r := range string(t) {
		if !unicode.IsPrint(r) && r != '\t' && r != '\n' {
			return "", false
		}
	}
	return string(t), true
}

func decodeMembers(members []btf.Member, b []byte, depth int) (any, error) {
	rec := make(Record, 0, len(members))
	for i, m := range members {
		off := int(m.Offset.Bytes())
		if m.BitfieldSize > 0 {
			v, err := decodeBitfield(m, b)
			if err != nil {
				return nil, err
			}
			rec = append(rec, Field{memberName(m, i), v})
			continue
		}
		if off > len(b) {
			return nil, fmt.Errorf("%w: member %s at offset %d beyond %d bytes", ErrDecode, m.Name, off, len(b))
		}
		v, err := decode(m.Type, b[off:], depth+1)
		if err != nil {
			return nil, fmt.Errorf("member %s: %w", m.Name, err)
		}
		if m.Name == "" {
			if inner, ok := v.(Record); ok {
				rec = append(rec, inner...) // anonymous struct or union: promote its members
				continue
			}
		}
		rec = append(rec, Field{memberName(m, i), v})
	}
	return rec, nil
}

func memberName(m btf.Member, i int) string {
	if m.Name != "" {
		return m.Name
	}
	return "_" + strconv.Itoa(i)
}

func decodeBitfield(m btf.Member, b []byte) (any, error) {
	start := uint32(m.Offset)
	n := uint32(m.BitfieldSize)
	if n > 64 || int(start+n) > 8*len(b) {
		return nil, fmt.Errorf("%w: bitfield %s out of range", ErrDecode, m.Name)
	}
	var u uint64
	for i := uint32(0); i < n; i++ {
		bit := start + i
		if b[bit/8]&(1<<(bit%8)) != 0 {
			u |= 1 << i
		}
	}
	if it, ok := skipQualifiers(m.Type).(*btf.Int); ok && it.Encoding&btf.Signed != 0 && n < 64 {
		shift := 64 - n
		return int64(u<<shift) >> shift, nil
	}
	return u, nil
}

// FormatValue renders a decoded value compactly for one-line output:
// records as "{a=1 b=2}", arrays as "[1,2,3]", strings bare when they are a
// simple token and quoted otherwise.
func FormatValue(v any) string {
	var b strings.Builder
	formatValue(&b, v)
	return b.String()
}

// FormatRecord renders a top-level record as "a=1 b=2" (without braces); any
// other value is rendered by FormatValue.
func FormatRecord(v any) string {
	r, ok := v.(Record)
	if !ok {
		return FormatValue(v)
	}
	var b strings.Builder
	writeFields(&b, r)
	return b.String()
}

func writeFields(b *strings.Builder, r Record) {
	for i, f := range r {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.Name)
		b.WriteByte('=')
		formatValue(b, f.Value)
	}
}

func formatValue(b *strings.Builder, v any) {
	switch v := v.(type) {
	case Record:
		b.WriteByte('{')
		writeFields(b, v)
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			formatValue(b, e)
		}
		b.WriteByte(']')
	case Bytes:
		b.WriteString(v.String())
	case Blob:
		b.WriteString(v.String())
	case string:
		if isToken(v) {
			b.WriteString(v)
		} else {
			b.WriteString(strconv.Quote(v))
		}
	default:
		fmt.Fprint(b, v)
	}
}

func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r > '~' || strings.ContainsRune(`"'=[]{},\`, r) {
			return false
		}
	}
	return true
}
