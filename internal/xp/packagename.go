package xp

import "strings"

// Repository returns a package reference without its tag or digest.
func Repository(pkg string) string {
	if i := strings.IndexByte(pkg, '@'); i >= 0 {
		pkg = pkg[:i]
	}
	if i := strings.LastIndexByte(pkg, ':'); i > strings.LastIndexByte(pkg, '/') {
		pkg = pkg[:i]
	}
	return pkg
}

// PackageName is the name Crossplane gives a package it installs from the
// reference pkg, as a Configuration's dependency (or as `crossplane xpkg
// install` does without --name): ToDNSLabel over the repository without its
// registry host, tag and digest. As in go-containerregistry, which Crossplane
// parses references with, the first path segment is a registry host only
// when it has a '.' or a ':' ("localhost:5000" is one, "localhost" is not):
// localhost/org/function-x gives localhost-org-function-x. convert and
// migrate both name functions by this rule.
func PackageName(pkg string) string {
	repo := Repository(pkg)
	if first, rest, ok := strings.Cut(repo, "/"); ok && strings.ContainsAny(first, ".:") {
		repo = rest
	}
	return ToDNSLabel(repo)
}

// ToDNSLabel turns a package repository path into the name Crossplane
// gives a package it installs as a dependency: a-z and 0-9 kept, `.`, `/`,
// `:` and `-` turned into `-`, everything else (upper case included)
// dropped, cut at 63 characters, `-` trimmed from both ends.
func ToDNSLabel(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '.', r == '/', r == ':', r == '-':
			b.WriteByte('-')
		}
	}
	out := b.String()
	if len(out) > 63 {
		out = out[:63]
	}
	return strings.Trim(out, "-")
}
