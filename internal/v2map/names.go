package v2map

import "strings"

// MaxGenerateNamePrefix is how much of a metadata.generateName the API
// server keeps when it generates a name: a name has at most 63
// characters, and 5 random ones are appended. Crossplane's name generator
// for composed resources copies the algorithm (v1.20 and v2), as does the
// claim controller's XR.
const MaxGenerateNamePrefix = 58

// GeneratePrefix returns the part of generateName that a name generated
// from it starts with: generateName cut to MaxGenerateNamePrefix.
func GeneratePrefix(generateName string) string {
	if len(generateName) > MaxGenerateNamePrefix {
		return generateName[:MaxGenerateNamePrefix]
	}
	return generateName
}

// Regenerate returns the name the API server generates from generateName
// to with the random suffix it appended to name, generated from
// generateName from; false when name was not generated from from. Both
// prefixes are cut as the API server cuts them: a legacy XR's composed
// resources are named after the XR's generated name, its v2 twin's after
// the claim's, and either may be long enough to be cut.
func Regenerate(name, from, to string) (string, bool) {
	p := GeneratePrefix(from)
	if len(name) <= len(p) || !strings.HasPrefix(name, p) {
		return "", false
	}
	return GeneratePrefix(to) + name[len(p):], true
}
