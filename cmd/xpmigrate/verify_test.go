package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

const (
	verifyXRD = `apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xthings.example.org
spec:
  group: example.org
  names:
    kind: XThing
    plural: xthings
  claimNames:
    kind: Thing
    plural: things
  versions:
  - name: v1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size:
                type: string
                enum: [small, large]
            required: [size]
`
	verifyClaim = `apiVersion: example.org/v1
kind: Thing
metadata:
  name: mine
  namespace: team
spec:
  size: large
`
	// testPipeline with the patch dropped.
	verifyBroken = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: things
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XThing
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef:
      name: function-patch-and-transform
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: bucket
        base:
          apiVersion: s3.example.org/v1
          kind: Bucket
          spec: {}
`
	// A legacy composition with a readiness check that makes the first
	// reconcile differ (transient), and a ToComposite into spec (a gap).
	verifyGapLegacy = testutil.ThingsLegacy + `    - type: ToCompositeFieldPath
      fromFieldPath: spec.forProvider.size
      toFieldPath: spec.copy
`
	verifyGapPipeline = testutil.ThingsPipeline + `        - type: ToCompositeFieldPath
          fromFieldPath: spec.forProvider.size
          toFieldPath: spec.copy
`
)

// executeVerify runs the verify command as `xpmigrate verify` would and
// returns the exit code run() would give.
func executeVerify(t *testing.T, args []string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	s := streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	root := newRootCmd(s)
	root.AddCommand(newVerifyCmd(s))
	root.SetArgs(append([]string{"verify"}, args...))
	err := root.Execute()
	code := exitCode(err)
	if err != nil && code != exitDifferences {
		errOut.WriteString(err.Error())
	}
	return code, out.String(), errOut.String()
}

func TestVerifyCommand(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"legacy.yaml":            testLegacy,
		"pipeline.yaml":          testPipeline,
		"broken.yaml":            verifyBroken,
		"xr.yaml":                testXR,
		"xrd.yaml":               verifyXRD,
		"claim.yaml":             verifyClaim,
		"gaps/legacy.yaml":       verifyGapLegacy,
		"gaps/pipeline.yaml":     verifyGapPipeline,
		"gaps/examples/xr.yaml":  testXR,
		"beside/legacy.yaml":     testLegacy,
		"beside/pipeline.yaml":   testPipeline,
		"beside/examples/a.yaml": testXR,
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	// The v2 pair of render/verify's testdata: a legacy Composition and its
	// v2-native conversion with the declared mapping.
	v2 := func(n string) string { return filepath.Join("..", "..", "render", "verify", "testdata", "v2", n) }

	cases := map[string]struct {
		reason   string
		args     []string
		wantCode int
		wantOut  []string
		wantErr  string
	}{
		"Equivalent": {
			reason:   "A faithful conversion verifies with exit 0.",
			args:     []string{p("legacy.yaml"), "--converted", p("pipeline.yaml"), "--xr", p("xr.yaml")},
			wantCode: exitOK,
			wantOut:  []string{"PASS " + p("xr.yaml") + "#1: equivalent"},
		},
		"PatchDropped": {
			reason:   "A conversion that lost a patch fails with exit 3 and a unified diff.",
			args:     []string{p("legacy.yaml"), "--converted", p("broken.yaml"), "--xr", p("xr.yaml")},
			wantCode: exitDifferences,
			wantOut:  []string{"FAIL ", "unexplained difference", `resource "bucket" spec.forProvider`, "-size: small"},
		},
		"BreakingGapFails": {
			reason:   "A breaking known gap (D5: a value written outside status is lost) fails unless accepted.",
			args:     []string{p("gaps/legacy.yaml"), "--converted", p("gaps/pipeline.yaml")},
			wantCode: exitDifferences,
			wantOut:  []string{"FAIL things: known-gaps: breaking known gaps D5, not accepted", "--accept D5", "breaking known gap D5 (C209)"},
		},
		"BreakingGapAccepted": {
			reason:   "--accept makes a breaking gap pass, still reported.",
			args:     []string{p("gaps/legacy.yaml"), "--converted", p("gaps/pipeline.yaml"), "--accept", "D5"},
			wantCode: exitOK,
			wantOut:  []string{"GAPS examples/xr.yaml#1", "breaking known gap, accepted (--accept), D5 (C209)"},
		},
		"AcceptUnknownCode": {
			reason:   "--accept with a code verify does not know is invalid input.",
			args:     []string{p("gaps/legacy.yaml"), "--converted", p("gaps/pipeline.yaml"), "--accept", "D77"},
			wantCode: exitInvalid,
			wantErr:  "D77",
		},
		"KnownGapStrict": {
			reason:   "--strict fails on known gaps that persist, accepted ones too.",
			args:     []string{p("gaps/legacy.yaml"), "--converted", p("gaps/pipeline.yaml"), "--strict", "--accept", "D5"},
			wantCode: exitDifferences,
			wantOut:  []string{"FAIL", "failing with --strict"},
		},
		"ExamplesBeside": {
			reason:   "Without --xr, examples beside the composition are the samples.",
			args:     []string{p("beside/legacy.yaml"), "--converted", p("beside/pipeline.yaml")},
			wantCode: exitOK,
			wantOut:  []string{"PASS examples/a.yaml#1"},
		},
		"Claim": {
			reason:   "A claim sample is turned into its XR with --xrd.",
			args:     []string{p("legacy.yaml"), "--converted", p("pipeline.yaml"), "--xr", p("claim.yaml"), "--xrd", p("xrd.yaml")},
			wantCode: exitOK,
			wantOut:  []string{"PASS " + p("claim.yaml") + "#1"},
		},
		"Synthesize": {
			reason:   "--synthesize generates samples from the XRD's schema.",
			args:     []string{p("legacy.yaml"), "--converted", p("pipeline.yaml"), "--xr", p("xr.yaml"), "--xrd", p("xrd.yaml"), "--synthesize", "3"},
			wantCode: exitOK,
			wantOut:  []string{"PASS synthesized-0", "PASS synthesized-1", "PASS synthesized-2", "4 samples"},
		},
		"GitHub": {
			reason:   "GitHub format annotates the legacy composition.",
			args:     []string{p("legacy.yaml"), "--converted", p("broken.yaml"), "--xr", p("xr.yaml"), "--format", "github"},
			wantCode: exitDifferences,
			wantOut:  []string{"::error file=" + strings.ReplaceAll(p("legacy.yaml"), ":", "%3A") + ",line=16,title="},
		},
		"V2Mapping": {
			reason:   "A v2-native conversion verifies with --target v2 against the claim's v2 twin, up to its declared mapping.",
			args:     []string{v2("legacy.yaml"), "--converted", v2("converted.yaml"), "--target", "v2", "--xr", v2("xr.yaml"), "--xrd", v2("xrd.yaml")},
			wantCode: exitOK,
			wantOut: []string{
				"PASS xpostgresqlinstances.aws.database.example.org: equivalent up to the declared v2 mapping (C421, C422, C440, C441, C442, C443, C480, C481, C482, C483, C484, C485)",
				"v2 mapping: database.example.org/v1alpha1 XPostgreSQLInstance -> platform.example.org/v1alpha1 PostgreSQLInstance (Namespaced)",
				"mapped " + v2("xr.yaml") + "#1: C440 declared v2 edit: 2 resources \"subnetgroup\", \"instance\" apiVersion",
			},
		},
		"V2MappingNeedsTargetV2": {
			reason:   "A v2-native conversion verified against the v1 composer is invalid input.",
			args:     []string{v2("legacy.yaml"), "--converted", v2("converted.yaml"), "--xr", v2("xr.yaml"), "--xrd", v2("xrd.yaml")},
			wantCode: exitInvalid,
			wantErr:  "verify it with --target v2",
		},
		"JSON": {
			reason:   "JSON format carries the verdict.",
			args:     []string{p("legacy.yaml"), "--converted", p("pipeline.yaml"), "--xr", p("xr.yaml"), "--format", "json"},
			wantCode: exitOK,
			wantOut:  []string{`"verdict": "equivalent"`},
		},
		"MissingFile": {
			reason:   "An unreadable composition is invalid input.",
			args:     []string{p("nope.yaml"), "--converted", p("pipeline.yaml"), "--xr", p("xr.yaml")},
			wantCode: exitInvalid,
			wantErr:  "cannot read legacy composition",
		},
		"WrongSampleKind": {
			reason:   "Samples of another kind are invalid input.",
			args:     []string{p("legacy.yaml"), "--converted", p("pipeline.yaml"), "--xr", p("xrd.yaml")},
			wantCode: exitInvalid,
			wantErr:  "no XR or claim",
		},
		"BadFormat": {
			reason:   "An unknown format is a usage error.",
			args:     []string{p("legacy.yaml"), "--converted", p("pipeline.yaml"), "--xr", p("xr.yaml"), "--format", "xml"},
			wantCode: exitInvalid,
			wantErr:  "--format must be one of",
		},
		"ConvertOnTheFly": {
			reason:   "Without --converted verify converts with xpmigrate's converter.",
			args:     []string{p("legacy.yaml"), "--xr", p("xr.yaml")},
			wantCode: exitOK,
			wantOut:  []string{"(converted on the fly)", "PASS " + p("xr.yaml") + "#1: equivalent"},
		},
		"NoArgument": {
			reason:   "The legacy composition is required.",
			args:     nil,
			wantCode: exitInvalid,
			wantErr:  "verify takes 1 argument",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := executeVerify(t, tc.args)
			if diff := cmp.Diff(tc.wantCode, code); diff != "" {
				t.Errorf("%s\nverify %v: exit code -want, +got:\n%s\nstdout:\n%s\nstderr:\n%s", tc.reason, tc.args, diff, out, errOut)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("%s\nverify %v: stdout does not contain %q:\n%s", tc.reason, tc.args, w, out)
				}
			}
			if tc.wantErr != "" && !strings.Contains(errOut, tc.wantErr) {
				t.Errorf("%s\nverify %v: stderr does not contain %q:\n%s", tc.reason, tc.args, tc.wantErr, errOut)
			}
			if strings.Contains(out, "\x1b[") {
				t.Errorf("%s\nverify %v: colour on a non-terminal", tc.reason, tc.args)
			}
		})
	}
}
