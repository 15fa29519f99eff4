package render

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"
)

// The API server's generateName rules: the prefix is cut to 58 characters
// and 5 characters from this alphabet are appended.
const (
	nameAlphabet       = "bcdfghjklmnpqrstvwxz2456789"
	nameSuffixLength   = 5
	MaxGenerateNameLen = 58
)

// GeneratedName returns the name an object with the generateName prefix
// gets. The API server draws the 5 characters at random; xpmigrate derives
// them from the SHA-256 of the XR's uid and name, the composition resource
// name (or template) and the attempt, so that the same input always renders
// the same names, on both the legacy and the pipeline side.
func GeneratedName(prefix, xrUID, xrName, resource string, attempt int) string {
	if len(prefix) > MaxGenerateNameLen {
		prefix = prefix[:MaxGenerateNameLen]
	}
	sum := sha256.Sum256([]byte(xrUID + "\x00" + xrName + "\x00" + resource + "\x00" + strconv.Itoa(attempt)))
	n := binary.BigEndian.Uint64(sum[:8])
	b := make([]byte, nameSuffixLength)
	for i := range b {
		b[i] = nameAlphabet[n%uint64(len(nameAlphabet))]
		n /= uint64(len(nameAlphabet))
	}
	return prefix + string(b)
}
