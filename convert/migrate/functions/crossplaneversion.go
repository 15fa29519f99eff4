package functions

import (
	"fmt"

	mmsemver "github.com/Masterminds/semver"
	yaml3 "go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/convert/migrate/finding"
	"github.com/xpmigrate/xpmigrate/convert/yamledit"
)

// minCrossplaneV1 is the lowest Crossplane release that runs what migrate
// --target v1 writes for a Configuration: the Pipeline Compositions with
// the pinned functions, and the Function manifests. Each requirement, with
// its source:
//
//   - mode: Pipeline (Composition Functions beta, on by default): v1.14
//     (crossplane/docs#672, "composition functions matured to beta with
//     v1.14").
//   - function-environment-configs (the Compositions with an environment)
//     reads EnvironmentConfigs as extra resources: v1.15 (its README: "relies
//     on functionalities only available in Crossplane 1.15 and later").
//   - the Function manifests migrate writes are pkg.crossplane.io/v1, and the
//     function packages are built for that API: v1.17, which promoted
//     Composition Functions to v1 (crossplane/crossplane#5885; Function and
//     FunctionRevision store v1 from 1.17, crossplane-contrib/function-environment-configs#91).
//
// The highest of them, v1.17.0, is the lower bound. (Verification renders
// as Crossplane 1.18–1.20 do, the lines --target v1 names; 1.17 runs the
// same Pipeline Compositions with the same functions.)
var minCrossplaneV1 = semver{major: 1, minor: 17}

// crossplaneConstraintV1 is the constraint a Configuration gets when its
// own admits releases below minCrossplaneV1 (the -0 admits pre-releases,
// as Crossplane's own constraints do).
const crossplaneConstraintV1 = ">=v1.17.0-0"

// RaiseCrossplaneConstraint raises the spec.crossplane.version of the
// Configuration top when it admits a Crossplane release below
// minCrossplaneV1, or is missing, editing the node in place (comments and
// key order stay; an upper bound below v2 is kept as <v2.0.0-0). It
// returns the finding (M413) that reports the change, nil when none was
// needed.
func RaiseCrossplaneConstraint(top *yaml3.Node) *finding.Diagnostic {
	spec := yamledit.Resolve(yamledit.Get(top, "spec"))
	if !yamledit.IsMap(spec) {
		return nil
	}
	cp := yamledit.Resolve(yamledit.Get(spec, "crossplane"))
	vn := yamledit.Get(cp, "version")
	old, _ := yamledit.Str(vn)
	want := crossplaneConstraintV1
	if old != "" {
		c, err := parseConstraint(old)
		if err != nil {
			return &finding.Diagnostic{Code: "M413", Severity: finding.SeverityWarning, Document: -1, Path: "spec.crossplane.version",
				Message: fmt.Sprintf("the Crossplane version constraint %q cannot be read; the converted Pipeline Compositions and their functions need Crossplane %s or later: make sure it admits no earlier release (%q does)", old, minCrossplaneV1, crossplaneConstraintV1)}
		}
		if !admitsBelow(c, minCrossplaneV1) {
			return nil
		}
		if !c.Check(semver{major: 2}.version()) {
			want += ", <v2.0.0-0"
		}
	}
	switch {
	case vn != nil && vn.Kind == yaml3.ScalarNode:
		vn.Value, vn.Tag = want, yamledit.TagStr
		if vn.Style&(yaml3.DoubleQuotedStyle|yaml3.SingleQuotedStyle) == 0 {
			vn.Style = yaml3.DoubleQuotedStyle // ">=…" reads as a string either way; quoted as Crossplane's own examples.
		}
	case yamledit.IsMap(cp):
		v := yamledit.NewString(want)
		v.Style = yaml3.DoubleQuotedStyle
		yamledit.Set(cp, "version", v)
	default:
		m := yamledit.NewMap()
		v := yamledit.NewString(want)
		v.Style = yaml3.DoubleQuotedStyle
		yamledit.Set(m, "version", v)
		yamledit.Insert(spec, 0, "crossplane", m)
	}
	was := "none"
	if old != "" {
		was = fmt.Sprintf("%q, which admits releases before %s", old, minCrossplaneV1)
	}
	return &finding.Diagnostic{Code: "M413", Severity: finding.SeverityInfo, Document: -1, Path: "spec.crossplane.version",
		Message: fmt.Sprintf("Crossplane version constraint set to %q (was %s): the converted Pipeline Compositions with the pinned functions and the pkg.crossplane.io/v1 Function manifests need Crossplane %s or later", want, was, minCrossplaneV1)}
}

// admitsBelow reports whether c admits a Crossplane release below min:
// every 1.x minor line before it is probed at a few patch levels, and
// v0.x.
func admitsBelow(c *mmsemver.Constraints, min semver) bool {
	for minor := 0; minor < min.minor; minor++ {
		for _, patch := range []int{0, 1, 5, 20} {
			if c.Check(semver{major: 1, minor: minor, patch: patch}.version()) {
				return true
			}
		}
	}
	return c.Check(semver{minor: 9}.version())
}
