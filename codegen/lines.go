package codegen

import (
	"os"
	"strings"
)

// sourceCache reads source files once to attach line text to line info.
type sourceCache struct {
	files map[string][]string
}

func newSourceCache() *sourceCache { return &sourceCache{files: map[string][]string{}} }

// line returns line n (1-based) of file without its newline, or "" when the
// file cannot be read or has no such line.
func (c *sourceCache) line(file string, n int) string {
	if file == "" || n <= 0 {
		return ""
	}
	lines, ok := c.files[file]
	if !ok {
		data, err := os.ReadFile(file)
		if err == nil {
			lines = strings.Split(string(data), "\n")
		}
		c.files[file] = lines
	}
	if n > len(lines) {
		return ""
	}
	return strings.TrimRight(lines[n-1], "\r")
}
