package functions

import (
	"fmt"
	"strings"

	mmsemver "github.com/Masterminds/semver"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/migrate/finding"
	"github.com/xpmigrate/xpmigrate/convert/v2native"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A Pin is what a target needs of one function: the package, the
// release the converted Compositions are verified against (and that
// emitted manifests pin), the releases that behave the same, and the
// constraint a Configuration's dependency gets.
type Pin struct {
	// Repo is the function's name (function-patch-and-transform), Pkg
	// its package without tag, Release the release pinned.
	Repo, Pkg, Release string
	ok                 versionRange
	// Constraint is what a Configuration's dependency gets.
	Constraint string
	// supported says ok in words.
	supported string
}

// Pins returns the pins of function-patch-and-transform and
// function-environment-configs for a target.
//
// PT: verify emulates v0.10.8. The version table
// (docs/semantics/pipeline.md#patch-and-transform-versions) lists no semantic change in v0.10.1–v0.10.8, and
// v0.10.0's change (an automatic connection Secret) only applies to XRs
// with spec.crossplane, which Crossplane 1.x does not have; releases before
// v0.10.0 are built on crossplane-runtime v1 and SDK v0.4 and differ
// (readiness before v0.8, Combine policies before v0.8, mergeOptions
// before v0.4). So v0.10.x on target v1. No later line has been examined,
// so v1 stops there; v2 takes any release from v0.10.0 (the line Crossplane
// v2 modern XRs need).
//
// EC: v0.7+ speaks only the required-resources protocol, which Crossplane
// 1.x does not know: it gets no EnvironmentConfigs there (D43, C1). So
// v0.6.x on v1, v0.7.x on v2.
func Pins(target crossplane.Target) (pt, ec Pin) {
	pt = Pin{Repo: xp.FunctionPatchAndTransform, Pkg: xp.PackagePatchAndTransform, Release: convert.PTVersion}
	ec = Pin{Repo: xp.FunctionEnvironmentConfigs, Pkg: xp.PackageEnvironmentConfigs}
	if target == crossplane.V2 {
		pt.ok = versionRange{lo: semver{minor: 10}, noHi: true}
		pt.Constraint, pt.supported = v2native.PTConstraintV2, "v0.10.0 or later"
		ec.Release = convert.ECVersionV2
		ec.ok = versionRange{lo: semver{minor: 7}, hi: semver{minor: 8}}
		ec.Constraint, ec.supported = v2native.ECConstraintV2, "v0.7.x"
		return pt, ec
	}
	pt.ok = versionRange{lo: semver{minor: 10}, hi: semver{minor: 11}}
	pt.Constraint, pt.supported = ">="+convert.PTVersion+", <v0.11.0", "v0.10.x"
	ec.Release = convert.ECVersionV1
	ec.ok = versionRange{lo: semver{minor: 6}, hi: semver{minor: 7}}
	ec.Constraint, ec.supported = ">="+convert.ECVersionV1+", <v0.7.0", "v0.6.x"
	return pt, ec
}

// packageTag returns the tag of a package reference, "" when it has none
// or is pinned by digest.
func packageTag(pkg string) string {
	if strings.Contains(pkg, "@") {
		return ""
	}
	if i := strings.LastIndexByte(pkg, ':'); i > strings.LastIndexByte(pkg, '/') {
		return pkg[i+1:]
	}
	return ""
}

// CheckManifest returns a finding when a Function manifest's package is
// not at a release the target supports, or its release cannot be told.
func (p Pin) CheckManifest(name, pkg string, target crossplane.Target) *finding.Diagnostic {
	want := p.Pkg + ":" + p.Release
	tag := packageTag(pkg)
	v, ok := parseVersion(tag)
	switch {
	case !ok || !isRelease(tag) || v.Prerelease() != "":
		return &finding.Diagnostic{Code: "M409", Severity: finding.SeverityInfo,
			Message: fmt.Sprintf("Function %q installs %s, whose release cannot be told (no release tag); the converted Compositions (target %s) need %s %s, verified against %s: make sure it is one, or set spec.package to %s",
				name, pkg, target, p.Repo, p.supported, p.Release, want)}
	case !p.ok.contains(v):
		return &finding.Diagnostic{Code: "M409", Severity: finding.SeverityWarning,
			Message: fmt.Sprintf("Function %q installs %s %s, but the converted Compositions (target %s) need %s %s (verified against %s); they use this Function by name, so set its spec.package to %s",
				name, p.Repo, v.Original(), target, p.Repo, p.supported, p.Release, want)}
	}
	return nil
}

// CheckDependency returns a finding when a Configuration dependency's
// version constraint lets Crossplane install a release the target does not
// support.
func (p Pin) CheckDependency(at, pkg, version string, target crossplane.Target) *finding.Diagnostic {
	fix := fmt.Sprintf("set its version to %q", p.Constraint)
	if strings.HasPrefix(version, "sha256:") {
		return &finding.Diagnostic{Code: "M410", Severity: finding.SeverityInfo, Path: at,
			Message: fmt.Sprintf("the dependency on %s is pinned by digest, so its release cannot be told; the converted Compositions (target %s) need %s %s (verified against %s): make sure it is one, or %s",
				pkg, target, p.Repo, p.supported, p.Release, fix)}
	}
	if version == "" {
		return &finding.Diagnostic{Code: "M410", Severity: finding.SeverityWarning, Path: at,
			Message: fmt.Sprintf("the dependency on %s has no version, which does not bound the release; the converted Compositions (target %s) need %s %s (verified against %s): %s",
				pkg, target, p.Repo, p.supported, p.Release, fix)}
	}
	c, err := parseConstraint(version)
	if err != nil {
		return &finding.Diagnostic{Code: "M410", Severity: finding.SeverityWarning, Path: at,
			Message: fmt.Sprintf("the dependency on %s has version %q, which Crossplane's package manager cannot read (%v; comparisons are joined by commas); the converted Compositions (target %s) need %s %s (verified against %s): %s",
				pkg, version, err, target, p.Repo, p.supported, p.Release, fix)}
	}
	if in, outside := constraintWithin(c, p.ok, mustSemver(p.Release)); !in {
		what := "admits no release of " + p.supported
		if len(outside) > 0 {
			what = fmt.Sprintf("admits %s", outside[0].Original())
		}
		return &finding.Diagnostic{Code: "M410", Severity: finding.SeverityWarning, Path: at,
			Message: fmt.Sprintf("the dependency on %s has version %q, which %s; the converted Compositions (target %s) need %s %s (verified against %s): %s",
				pkg, version, what, target, p.Repo, p.supported, p.Release, fix)}
	}
	return nil
}

// mustSemver reads a release the code pins, such as v0.10.8.
func mustSemver(s string) semver {
	v := mmsemver.MustParse(s)
	return semver{major: int(v.Major()), minor: int(v.Minor()), patch: int(v.Patch())}
}

// isRelease reports whether a tag names a whole release, major.minor.patch
// (v0.10 may name any of a line, or no release at all).
func isRelease(tag string) bool {
	core, _, _ := strings.Cut(strings.TrimPrefix(tag, "v"), "-")
	core, _, _ = strings.Cut(core, "+")
	return strings.Count(core, ".") == 2
}
