package manifest

import (
	"fmt"
	"io"
	"sync/atomic"

	"github.com/pkg/errors"
	yaml "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// The default bounds of every reader (docs/safety.md). Real manifests are
// far inside them: the largest file of the corpus of real Compositions is
// 400 KB and the deepest document nests about 40 levels (CRD schemas). The
// API server itself refuses JSON nested more than 10,000 levels
// (k8s.io/apimachinery/pkg/util/json and sigs.k8s.io/json) and request
// bodies over 3 MiB.
const (
	// DefaultMaxDepth is the deepest nesting of maps and lists a document
	// may have (--max-depth).
	DefaultMaxDepth = 1000
	// DefaultMaxFileSize is the largest file or stream, in bytes, a reader
	// parses (--max-file-size): 32 MiB.
	DefaultMaxFileSize = 32 << 20
)

// Limits bound what the readers accept, so that hostile or careless input
// costs bounded memory and time.
type Limits struct {
	// MaxDepth is the deepest nesting of maps and lists a document may
	// have; a deeper document is a *DepthError.
	MaxDepth int
	// MaxFileSize is the largest file or stream, in bytes, that is read
	// and parsed; a larger one is a *regularfile.TooLargeError.
	MaxFileSize int64
}

// DefaultLimits are the limits of a reader no command has set.
var DefaultLimits = Limits{MaxDepth: DefaultMaxDepth, MaxFileSize: DefaultMaxFileSize}

// current holds the limits of the process: the command sets them once from
// its flags, before it reads anything, and every reader (the command's own
// and those of the packages it calls) applies them.
var current atomic.Pointer[Limits]

// SetLimits sets the limits every reader applies, zero fields meaning
// the defaults, and returns a function that restores the previous ones.
func SetLimits(l Limits) (restore func()) {
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxFileSize <= 0 {
		l.MaxFileSize = DefaultMaxFileSize
	}
	prev := current.Swap(&l)
	return func() { current.Store(prev) }
}

// CurrentLimits returns the limits every reader applies.
func CurrentLimits() Limits {
	if l := current.Load(); l != nil {
		return *l
	}
	return DefaultLimits
}

// A DepthError is a document nested deeper than Limits.MaxDepth.
type DepthError struct {
	// Depth is how deep the document nests (at least Limit+1).
	Depth int
	// Limit is the bound it crossed.
	Limit int
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("data nested %d levels deep, more than the limit of %d (--max-depth)", e.Depth, e.Limit)
}

// IsDepthError reports whether err is (or wraps) a *DepthError.
func IsDepthError(err error) bool {
	var de *DepthError
	return errors.As(err, &de)
}

// CheckDepth returns a *DepthError when the JSON text j nests maps and
// lists deeper than the current MaxDepth. It reads j once, in constant
// memory.
func CheckDepth(j []byte) error {
	limit := CurrentLimits().MaxDepth
	if d := JSONDepth(j); d > limit {
		return &DepthError{Depth: d, Limit: limit}
	}
	return nil
}

// JSONDepth returns how deeply the JSON text j nests objects and arrays:
// 0 for a scalar, 1 for {} or [1], 2 for {"a":[]}. Brackets inside strings
// do not count. j need not be valid JSON.
func JSONDepth(j []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, c := range j {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// ReadFile reads the regular file at path, as regularfile.ReadFile does,
// and returns a *regularfile.TooLargeError, without reading it, when it is
// larger than the current MaxFileSize.
func ReadFile(path string) ([]byte, error) {
	return regularfile.ReadFileMax(path, CurrentLimits().MaxFileSize)
}

// ReadAll reads r to its end, as io.ReadAll does, and returns a
// *regularfile.TooLargeError naming source once more than the current
// MaxFileSize bytes came.
func ReadAll(r io.Reader, source string) ([]byte, error) {
	limit := CurrentLimits().MaxFileSize
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &regularfile.TooLargeError{Path: source, Size: -1, Limit: limit}
	}
	return b, nil
}

// CheckNodeDepth is CheckDepth for a yaml.v3 node tree: mappings and
// sequences count a level each, as objects and arrays do in JSON; aliases
// are not followed (their expansion has its own budget).
func CheckNodeDepth(n *yaml.Node) error {
	limit := CurrentLimits().MaxDepth
	if d := NodeDepth(n); d > limit {
		return &DepthError{Depth: d, Limit: limit}
	}
	return nil
}

// NodeDepth returns how deeply mappings and sequences nest in the tree of
// n, as JSONDepth counts them. It walks the tree once, without recursion.
func NodeDepth(n *yaml.Node) int {
	type item struct {
		n     *yaml.Node
		depth int
	}
	deepest := 0
	stack := []item{{n, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.n == nil {
			continue
		}
		d := it.depth
		if it.n.Kind == yaml.MappingNode || it.n.Kind == yaml.SequenceNode {
			d++
			deepest = max(deepest, d)
		}
		for _, c := range it.n.Content {
			stack = append(stack, item{c, d})
		}
	}
	return deepest
}
