package gaps

import "testing"

// SetRewordErr makes Classify reword every engine error with f until the
// test ends.
func SetRewordErr(t testing.TB, f func(error) error) {
	t.Helper()
	rewordErr = f
	t.Cleanup(func() { rewordErr = nil })
}
