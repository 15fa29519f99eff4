package functions

import (
	"strconv"

	mmsemver "github.com/Masterminds/semver"
)

// Versions and constraints are read with github.com/Masterminds/semver at
// the release Crossplane v1.20 pins (v1.5.0): its package manager parses a
// dependency's spec.dependsOn[].version with semver.NewConstraint and the
// registry's tags with semver.NewVersion, and installs the highest tag the
// constraint admits (internal/controller/pkg/resolver). Reading them with
// the same library at the same release is what makes "admits" here mean
// what Crossplane does. Of that release's grammar, worth knowing:
//
//   - comparisons are joined by commas only (">=1.0, <2.0"); a space
//     between two comparisons (">=1.0 <2.0") is not a constraint, and
//     Crossplane refuses the dependency;
//   - "1.2 - 1.4" is ">= 1.2, <= 1.4"; "~1.2" and "~>1.2" keep the minor
//     line; "^0.10" keeps only the major line (it admits v0.11.0);
//   - a comparison whose version has no pre-release admits no pre-release.

// A semver is a release, major.minor.patch: a bound of the releases a
// target supports.
type semver struct {
	major, minor, patch int
}

func (v semver) String() string {
	return "v" + strconv.Itoa(v.major) + "." + strconv.Itoa(v.minor) + "." + strconv.Itoa(v.patch)
}

func (v semver) version() *mmsemver.Version {
	return mmsemver.MustParse(v.String())
}

// parseVersion reads a package tag as Crossplane reads registry tags; ok
// is false for a tag that is not a semantic version.
func parseVersion(s string) (*mmsemver.Version, bool) {
	v, err := mmsemver.NewVersion(s)
	return v, err == nil
}

// A versionRange is the releases lo <= v < hi (no upper bound with noHi).
// Pre-releases are never in it: nothing was verified against one.
type versionRange struct {
	lo, hi semver
	noHi   bool
}

func (r versionRange) contains(v *mmsemver.Version) bool {
	if v.Prerelease() != "" || v.LessThan(r.lo.version()) {
		return false
	}
	return r.noHi || v.LessThan(r.hi.version())
}

// parseConstraint reads a dependency's version constraint as Crossplane
// does; the error is the library's.
func parseConstraint(s string) (*mmsemver.Constraints, error) {
	return mmsemver.NewConstraint(s)
}

// probeVersions are the versions a constraint is tried with to see which
// releases it lets Crossplane install: every minor release line up to
// v0.20 at a few patch levels and a release candidate of its first patch,
// and the next majors.
func probeVersions() []*mmsemver.Version {
	var out []*mmsemver.Version
	add := func(s string) { out = append(out, mmsemver.MustParse(s)) }
	for minor := 0; minor <= 20; minor++ {
		m := strconv.Itoa(minor)
		add("v0." + m + ".0-rc.1")
		for _, patch := range []int{0, 1, 2, 3, 5, 8, 9, 10, 20, 99} {
			add("v0." + m + "." + strconv.Itoa(patch))
		}
	}
	for major := 1; major <= 3; major++ {
		m := strconv.Itoa(major)
		add("v" + m + ".0.0-rc.1")
		add("v" + m + ".0.0")
		add("v" + m + ".1.0")
		add("v" + m + ".99.0")
	}
	return out
}

// constraintWithin reports whether a constraint can only resolve to releases in r:
// every probe version it admits is in r, and it admits the pin or some
// probe in r. It returns the admitted probes outside r.
func constraintWithin(c *mmsemver.Constraints, r versionRange, pin semver) (bool, []*mmsemver.Version) {
	var outside []*mmsemver.Version
	some := c.Check(pin.version())
	for _, v := range probeVersions() {
		switch {
		case !c.Check(v):
		case r.contains(v):
			some = true
		default:
			outside = append(outside, v)
		}
	}
	return len(outside) == 0 && some, outside
}
