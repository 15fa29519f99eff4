package migrate

import (
	"strconv"
	"strings"
)

// A semver is a release version, major.minor.patch; pre-release and build
// suffixes are kept apart and only make a version unknown to range checks.
type semver struct {
	major, minor, patch int
	pre                 string
}

func (v semver) String() string {
	s := "v" + strconv.Itoa(v.major) + "." + strconv.Itoa(v.minor) + "." + strconv.Itoa(v.patch)
	if v.pre != "" {
		s += "-" + v.pre
	}
	return s
}

// compare returns -1, 0 or 1 as v is lower than, equal to or higher than
// w, ignoring pre-releases.
func (v semver) compare(w semver) int {
	for _, d := range [3]int{v.major - w.major, v.minor - w.minor, v.patch - w.patch} {
		switch {
		case d < 0:
			return -1
		case d > 0:
			return 1
		}
	}
	return 0
}

// parseSemver reads a release version such as v0.10.8 or 0.10.8.
func parseSemver(s string) (semver, bool) {
	v, parts, ok := parsePartial(s)
	return v, ok && parts == 3
}

// parsePartial reads a version that may stop after the major or minor
// number or end in a wildcard (v0.10, v0.10.x, 1.*): it returns the version
// with the missing numbers 0 and how many numbers were given.
func parsePartial(s string) (semver, int, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s = s[:i]
	}
	var v semver
	if i := strings.IndexByte(s, '-'); i >= 0 {
		s, v.pre = s[:i], s[i+1:]
	}
	if s == "" {
		return v, 0, false
	}
	nums := strings.Split(s, ".")
	if len(nums) > 3 {
		return v, 0, false
	}
	given := 0
	for i, n := range nums {
		if n == "x" || n == "X" || n == "*" {
			break
		}
		x, err := strconv.Atoi(n)
		if err != nil || x < 0 {
			return v, 0, false
		}
		switch i {
		case 0:
			v.major = x
		case 1:
			v.minor = x
		case 2:
			v.patch = x
		}
		given++
	}
	return v, given, true
}

// A versionRange is the versions lo <= v < hi; a zero hi means no bound.
type versionRange struct {
	lo, hi semver
	noHi   bool
}

func (r versionRange) contains(v semver) bool {
	return v.compare(r.lo) >= 0 && (r.noHi || v.compare(r.hi) < 0)
}

// A constraint is a package dependency's version constraint in the
// grammar Crossplane reads them with (Masterminds/semver): alternatives
// separated by "||", each a list of comparisons separated by commas or
// spaces, each one of =, !=, >, >=, <, <=, ~ and ^ (or none) before a
// version that may be partial or end in x or *.
type constraint [][]comparison

type comparison struct {
	op    string
	v     semver
	given int
}

// parseConstraint reads a constraint; ok is false for anything it does
// not understand.
func parseConstraint(s string) (constraint, bool) {
	var out constraint
	for _, alt := range strings.Split(s, "||") {
		var group []comparison
		fields := strings.FieldsFunc(alt, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		for i := 0; i < len(fields); i++ {
			f := fields[i]
			op := ""
			for _, o := range []string{">=", "<=", "!=", "=>", "=<", ">", "<", "=", "~", "^"} {
				if strings.HasPrefix(f, o) {
					op, f = o, f[len(o):]
					break
				}
			}
			if f == "" && i+1 < len(fields) { // "> v1.0": the version is the next field.
				i++
				f = fields[i]
			}
			switch op {
			case "=>":
				op = ">="
			case "=<":
				op = "<="
			}
			v, given, ok := parsePartial(f)
			if !ok && f != "*" && f != "x" {
				return nil, false
			}
			group = append(group, comparison{op: op, v: v, given: given})
		}
		if len(group) == 0 {
			return nil, false
		}
		out = append(out, group)
	}
	return out, true
}

// admits reports whether v satisfies the constraint.
func (c constraint) admits(v semver) bool {
	for _, group := range c {
		all := true
		for _, cmp := range group {
			if !cmp.admits(v) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func (c comparison) admits(v semver) bool {
	// The range a partial version stands for: v0.10 is [v0.10.0, v0.11.0).
	lo, hi, bounded := c.v, c.v, true
	switch c.given {
	case 0:
		bounded = false
	case 1:
		hi = semver{major: c.v.major + 1}
	case 2:
		hi = semver{major: c.v.major, minor: c.v.minor + 1}
	case 3:
		hi = semver{major: c.v.major, minor: c.v.minor, patch: c.v.patch + 1}
	}
	in := versionRange{lo: lo, hi: hi, noHi: !bounded}
	switch c.op {
	case "", "=":
		return in.contains(v)
	case "!=":
		return !in.contains(v)
	case ">":
		return !bounded || v.compare(hi) >= 0
	case ">=":
		return v.compare(lo) >= 0
	case "<":
		return bounded && v.compare(lo) < 0
	case "<=":
		return !bounded || v.compare(hi) < 0
	case "~":
		// ~1.2.3 and ~1.2 are >=1.2.3 <1.3.0; ~1 is >=1.0.0 <2.0.0.
		up := semver{major: lo.major, minor: lo.minor + 1}
		if c.given == 1 {
			up = semver{major: lo.major + 1}
		}
		return !bounded || (v.compare(lo) >= 0 && v.compare(up) < 0)
	case "^":
		// ^1.2.3 is <2.0.0; ^0.2.3 is <0.3.0; ^0.0.3 is <0.0.4.
		var up semver
		switch {
		case lo.major > 0 || c.given == 1:
			up = semver{major: lo.major + 1}
		case lo.minor > 0 || c.given == 2:
			up = semver{minor: lo.minor + 1}
		default:
			up = semver{patch: lo.patch + 1}
		}
		return !bounded || (v.compare(lo) >= 0 && v.compare(up) < 0)
	}
	return false
}

// probeVersions are the versions a constraint is tried with to see which
// releases it lets Crossplane install: every minor release line up to
// v0.20 at a few patch levels, and the next majors.
func probeVersions() []semver {
	var out []semver
	for minor := 0; minor <= 20; minor++ {
		for _, patch := range []int{0, 1, 2, 3, 5, 8, 9, 10, 20, 99} {
			out = append(out, semver{minor: minor, patch: patch})
		}
	}
	for major := 1; major <= 3; major++ {
		out = append(out, semver{major: major}, semver{major: major, minor: 1}, semver{major: major, minor: 99})
	}
	return out
}

// within reports whether the constraint can only resolve to releases in
// r: every probe version it admits is in r, and it admits the pin or some
// probe in r. It returns the admitted probes outside r.
func (c constraint) within(r versionRange, pin semver) (bool, []semver) {
	var outside []semver
	some := c.admits(pin)
	for _, v := range probeVersions() {
		switch {
		case !c.admits(v):
		case r.contains(v):
			some = true
		default:
			outside = append(outside, v)
		}
	}
	return len(outside) == 0 && some, outside
}
