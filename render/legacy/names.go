package legacy

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The API server's generateName rules: the prefix is cut to 58 characters
// and 5 characters from this alphabet are appended.
const (
	nameAlphabet     = "bcdfghjklmnpqrstvwxz2456789"
	nameSuffixLength = 5
	maxPrefixLength  = 58
	maxNameAttempts  = 10
)

// A nameGenerator returns a candidate name for a template's new object.
// template identifies the template, attempt counts from 0.
type nameGenerator func(prefix, template string, attempt int) string

// newNameGenerator returns fn, or when it is nil a deterministic generator
// seeded by the XR's uid and name: the suffix is drawn from the SHA-256 of
// (uid, name, template, attempt).
func newNameGenerator(xr map[string]any, fn func(prefix string) string) nameGenerator {
	if fn != nil {
		return func(prefix, _ string, _ int) string { return fn(prefix) }
	}
	u := &unstructured.Unstructured{Object: xr}
	seed := string(u.GetUID()) + "\x00" + u.GetName()
	return func(prefix, template string, attempt int) string {
		sum := sha256.Sum256([]byte(seed + "\x00" + template + "\x00" + strconv.Itoa(attempt)))
		n := binary.BigEndian.Uint64(sum[:8])
		b := make([]byte, nameSuffixLength)
		for i := range b {
			b[i] = nameAlphabet[n%uint64(len(nameAlphabet))]
			n /= uint64(len(nameAlphabet))
		}
		return prefix + string(b)
	}
}

// generateName names an object that has a generateName but no name, as
// Crossplane does before the object exists: up to 10 candidates, the first
// that no object of the same kind has (spec §9.5 step 5).
func (c *composer) generateName(u *unstructured.Unstructured, template string) error {
	if u.GetName() != "" || u.GetGenerateName() == "" {
		return nil
	}
	prefix := u.GetGenerateName()
	if len(prefix) > maxPrefixLength {
		prefix = prefix[:maxPrefixLength]
	}
	for attempt := range maxNameAttempts {
		name := c.names(prefix, template, attempt)
		if c.get(keyOf(u.GetAPIVersion(), u.GetKind(), "", name)) == nil {
			u.SetName(name)
			return nil
		}
	}
	return errors.New("cannot generate a name for a resource")
}
