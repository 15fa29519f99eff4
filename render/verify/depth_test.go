package verify

import (
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// nestedList returns a value nested depth lists deep, with leaf at the
// bottom.
func nestedList(depth int, leaf any) any {
	v := leaf
	for range depth {
		v = []any{v}
	}
	return v
}

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDiffValuesLinearInDepth holds verify's comparison to memory in
// proportion to the depth of a value: an XR field nested 9,990 lists deep
// (20 KB of YAML) cost 2 GB when every level copied its path.
func TestDiffValuesLinearInDepth(t *testing.T) {
	bytesAt := func(depth int) uint64 {
		a, b := nestedList(depth, "a"), nestedList(depth, "b")
		return allocated(func() { diffValues(nil, a, b, func(Path, *Value, *Value) {}) })
	}
	small, large := bytesAt(1000), bytesAt(8000)
	// Eight times as deep: eight times the memory when linear, 64 times
	// when quadratic. The bound leaves room for noise.
	if large > 16*small+(1<<20) {
		t.Errorf("diffValues: %d bytes at depth 1000, %d bytes at depth 8000: grows faster than the depth", small, large)
	}

	// The difference found is the same as before: one leaf, at the full
	// path.
	var got []string
	diffValues(nil, nestedList(3, "a"), nestedList(3, "b"), func(p Path, _, _ *Value) { got = append(got, p.String()) })
	if diff := cmp.Diff([]string{"[0][0][0]"}, got); diff != "" {
		t.Errorf("diffValues: -want, +got:\n%s", diff)
	}
}

func TestDiffValuesReportsStablePaths(t *testing.T) {
	a := map[string]any{"x": []any{"1", "2"}, "y": map[string]any{"z": "a"}}
	b := map[string]any{"x": []any{"9", "8"}, "y": map[string]any{"z": "b", "w": "c"}}
	var paths []Path
	diffValues(Path{{Field: "spec"}}, a, b, func(p Path, _, _ *Value) { paths = append(paths, p) })
	var got []string
	for _, p := range paths {
		got = append(got, p.String())
	}
	want := []string{"spec.x[0]", "spec.x[1]", "spec.y.w", "spec.y.z"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diffValues: paths kept by the reporter changed after the report: -want, +got:\n%s", diff)
	}
}
