package verify

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// envComposition is a legacy Composition whose only resource reads the
// environment, with the environment's sources given as YAML.
func envComposition(sources string) string {
	return `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xbuckets
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBucket
  environment:
    environmentConfigs:
` + sources + `
  resources:
  - name: bucket
    base:
      apiVersion: s3.aws.upbound.io/v1beta1
      kind: Bucket
      spec:
        forProvider: {}
    patches:
    - type: FromEnvironmentFieldPath
      fromFieldPath: region
      toFieldPath: spec.forProvider.region
`
}

const envXR = `apiVersion: example.org/v1
kind: XBucket
metadata:
  name: b1
spec:
  env: dev
`

const envConfigs = `apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata:
  name: dev-a
  labels:
    env: dev
data:
  region: eu-west-1
---
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata:
  name: dev-b
  labels:
    env: dev
data:
  region: eu-west-2
`

// TestBothSidesFailIsInconclusive: a sample both engines fail to render
// proves nothing. It must never be "equivalent", and a Composition whose
// samples are all like that is unverified.
func TestBothSidesFailIsInconclusive(t *testing.T) {
	cases := map[string]struct {
		reason   string
		sources  string
		extra    string
		wantHint string
	}{
		"ReferenceNotAmongInputs": {
			reason: "An EnvironmentConfig referenced by name that is not among the inputs fails both sides.",
			sources: `    - type: Reference
      ref:
        name: does-not-exist`,
			wantHint: "EnvironmentConfig does-not-exist is not among the inputs",
		},
		"RequiredSelectorMatchesNothing": {
			reason: "A Single selector under resolution Required that matches nothing fails both sides (a Multiple one natively selects nothing and succeeds).",
			sources: `    - type: Selector
      selector:
        mode: Single
        matchLabels:
        - key: env
          type: Value
          value: prod
    policy:
      resolution: Required`,
			extra:    envConfigs,
			wantHint: "the EnvironmentConfig selection failed on both sides",
		},
		"SingleSelectorMatchesSeveral": {
			reason: "A Single selector that matches several EnvironmentConfigs fails both sides.",
			sources: `    - type: Selector
      selector:
        mode: Single
        matchLabels:
        - key: env
          type: FromCompositeFieldPath
          valueFromFieldPath: spec.env`,
			extra:    envConfigs,
			wantHint: "the EnvironmentConfig selection failed on both sides",
		},
		"SelectorLabelFromAbsentField": {
			reason: "A Required selector label read from an XR field that is absent fails both sides.",
			sources: `    - type: Selector
      selector:
        mode: Multiple
        matchLabels:
        - key: env
          type: FromCompositeFieldPath
          valueFromFieldPath: spec.missing`,
			extra:    envConfigs,
			wantHint: "the EnvironmentConfig selection failed on both sides",
		},
		"MinMatchNotMet": {
			reason: "A Multiple selector whose minMatch is not met fails both sides.",
			sources: `    - type: Selector
      selector:
        mode: Multiple
        minMatch: 3
        matchLabels:
        - key: env
          type: FromCompositeFieldPath
          valueFromFieldPath: spec.env`,
			extra:    envConfigs,
			wantHint: "the EnvironmentConfig selection failed on both sides",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := Options{Convert: Convert}
			if tc.extra != "" {
				o.Extra = objects(t, tc.extra)
			}
			// The hint reads the errors' types: reworded engine errors
			// give the same hint.
			rewordErr = func(err error) error { return reworded{err: err} }
			rr := verifyYAML(t, envComposition(tc.sources), "", envXR, o)
			rewordErr = nil
			if got := rr.Samples[0].Hint; !strings.Contains(got, tc.wantHint) || got == "" {
				t.Errorf("\n%s\nVerify(...) with reworded engine errors: hint %q, want one containing %q", tc.reason, got, tc.wantHint)
			}
			r := verifyYAML(t, envComposition(tc.sources), "", envXR, o)
			s := r.Samples[0]
			if s.LegacyError == "" || s.PipelineError == "" {
				dump(t, r)
				t.Fatalf("\n%s\nboth sides should fail: legacy error %q, pipeline error %q", tc.reason, s.LegacyError, s.PipelineError)
			}
			got := []string{string(s.Verdict), string(r.Verdict)}
			if diff := cmp.Diff([]string{string(Inconclusive), string(Unverified)}, got); diff != "" {
				t.Errorf("\n%s\nVerify(...): sample and Composition verdicts: -want, +got:\n%s", tc.reason, diff)
			}
			if !strings.Contains(s.Hint, tc.wantHint) || s.Hint == "" {
				t.Errorf("\n%s\nVerify(...): hint %q, want one containing %q", tc.reason, s.Hint, tc.wantHint)
			}
			if r.Fails(false) {
				t.Errorf("\n%s\nVerify(...).Fails(false): true, want false (inconclusive warns by default)", tc.reason)
			}
			if !r.Fails(true) {
				t.Errorf("\n%s\nVerify(...).Fails(true): false, want true (--require-verified fails)", tc.reason)
			}
			var b strings.Builder
			if err := WriteText(&b, r); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"WARN xbuckets: unverified", "WARN xr-0: inconclusive", "legacy:   ", "pipeline: ", "hint: "} {
				if !strings.Contains(b.String(), want) {
					t.Errorf("\n%s\nWrite(text): want %q in:\n%s", tc.reason, want, b.String())
				}
			}
			if strings.Contains(b.String(), "PASS") {
				t.Errorf("\n%s\nWrite(text): PASS for a sample that proved nothing:\n%s", tc.reason, b.String())
			}
		})
	}
}

// TestNoSamplesIsUnverified: with no sample at all, Verify reports an
// unverified Composition with the reason and a hint instead of passing.
func TestNoSamplesIsUnverified(t *testing.T) {
	r, err := Verify(context.Background(), Document{Path: "legacy.yaml", Data: []byte(envComposition("    - type: Reference\n      ref:\n        name: x"))}, Document{}, nil, Options{Convert: Convert})
	if err != nil {
		t.Fatalf("Verify(no samples): %v", err)
	}
	if r.Verdict != Unverified || r.Reason == "" || !strings.Contains(r.Hint, "--synthesize") {
		t.Errorf("Verify(no samples): verdict %q, reason %q, hint %q; want unverified with a reason and a --synthesize hint", r.Verdict, r.Reason, r.Hint)
	}
	if r.Fails(false) || !r.Fails(true) {
		t.Errorf("Verify(no samples): Fails(false)=%v Fails(true)=%v, want false and true", r.Fails(false), r.Fails(true))
	}
}

// TestGapSeverity: breaking gaps fail unless accepted, on the command line
// or by an annotation in the repository; benign ones (lags) are info.
func TestGapSeverity(t *testing.T) {
	read := func(t *testing.T, dir, name string) string {
		t.Helper()
		return string(readFile(t, "testdata/gaps/"+dir+"/"+name))
	}
	annotate := func(doc, key, value string) string {
		return strings.Replace(doc, "metadata:\n", "metadata:\n  annotations:\n    "+key+": \""+value+"\"\n", 1)
	}
	cases := map[string]struct {
		reason      string
		dir         string
		accept      []string
		annotLegacy string
		annotConv   string
		strict      bool
		wantVerdict Verdict
		wantFails   bool
	}{
		"BreakingFails": {
			reason:      "MatchInteger readiness (D21) leaves the XR never Ready: a breaking gap fails the run.",
			dir:         "integers",
			wantVerdict: KnownGaps,
			wantFails:   true,
		},
		"BreakingAcceptedByFlag": {
			reason:      "Accepting every breaking code on the command line makes the run pass, still reporting the gaps.",
			dir:         "integers",
			accept:      []string{"D21", "D30"},
			wantVerdict: KnownGaps,
		},
		"BreakingPartlyAccepted": {
			reason:      "Accepting only one of two breaking codes still fails.",
			dir:         "integers",
			accept:      []string{"D21"},
			wantVerdict: KnownGaps,
			wantFails:   true,
		},
		"BreakingAcceptedByAnnotation": {
			reason:      "The annotation on the converted Composition accepts codes in the repository.",
			dir:         "integers",
			annotConv:   "D21, D30",
			wantVerdict: KnownGaps,
		},
		"BreakingAcceptedByLegacyAnnotation": {
			reason:      "The annotation on the legacy Composition accepts codes too.",
			dir:         "integers",
			annotLegacy: "D21,D30",
			wantVerdict: KnownGaps,
		},
		"AcceptedFailsWithStrict": {
			reason:      "--strict fails on every persistent known gap, accepted or not.",
			dir:         "integers",
			accept:      []string{"D21", "D30"},
			strict:      true,
			wantVerdict: KnownGaps,
			wantFails:   true,
		},
		"LagsAreBenign": {
			reason:      "First-reconcile lags that vanish by the next reconcile are benign: the sample is equivalent and passes.",
			dir:         "first-reconcile",
			wantVerdict: Equivalent,
		},
		"LagsPassWithStrict": {
			reason:      "Transient lags never fail, even with --strict.",
			dir:         "first-reconcile",
			strict:      true,
			wantVerdict: Equivalent,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			legacy, conv := read(t, tc.dir, "legacy.yaml"), read(t, tc.dir, "converted.yaml")
			if tc.annotLegacy != "" {
				legacy = annotate(legacy, AnnotationAcceptGaps, tc.annotLegacy)
			}
			if tc.annotConv != "" {
				conv = annotate(conv, AnnotationAcceptGaps, tc.annotConv)
			}
			o := Options{Accept: tc.accept, Strict: tc.strict}
			if b := readFileIfExists(t, "testdata/gaps/"+tc.dir+"/observed.yaml"); b != nil {
				o.Observed = objects(t, string(b))
			}
			r := verifyYAML(t, legacy, conv, read(t, tc.dir, "xr.yaml"), o)
			if r.Verdict != tc.wantVerdict || r.Fails(false) != tc.wantFails {
				dump(t, r)
				t.Errorf("\n%s\nVerify(...): verdict %s, fails %v; want %s, fails %v", tc.reason, r.Verdict, r.Fails(false), tc.wantVerdict, tc.wantFails)
			}
		})
	}
}

// TestAcceptUnknownCode: an accepted code that is not in the catalogue is
// invalid input, not silently ignored.
func TestAcceptUnknownCode(t *testing.T) {
	legacy := string(readFile(t, "testdata/gaps/integers/legacy.yaml"))
	conv := string(readFile(t, "testdata/gaps/integers/converted.yaml"))
	_, err := Verify(context.Background(), Document{Path: "l.yaml", Data: []byte(legacy)}, Document{Path: "c.yaml", Data: []byte(conv)},
		[]Sample{{Name: "x", XR: objects(t, string(readFile(t, "testdata/gaps/integers/xr.yaml")))[0]}}, Options{Accept: []string{"D99"}})
	if err == nil || !strings.Contains(err.Error(), "D99") {
		t.Errorf("Verify(Accept: D99): error %v, want one naming D99", err)
	}
}

// TestFalseFailures: differences that are known gaps must not be reported
// as unexplained.
func TestFalseFailures(t *testing.T) {
	cases := map[string]struct {
		reason      string
		legacy      string
		converted   string
		xr          string
		extra       string
		want        []string
		wantVerdict Verdict
	}{
		"StaleEnvironmentConfigRefsResolveAlways": {
			reason: "Under policy.resolve: Always legacy rewrites stale spec.environmentConfigRefs, the pipeline leaves them: D35, benign bookkeeping.",
			legacy: `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xbuckets
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBucket
  environment:
    policy:
      resolve: Always
    environmentConfigs:
    - type: Reference
      ref:
        name: current
  resources:
  - name: bucket
    base:
      apiVersion: s3.aws.upbound.io/v1beta1
      kind: Bucket
      spec:
        forProvider: {}
    patches:
    - type: FromEnvironmentFieldPath
      fromFieldPath: region
      toFieldPath: spec.forProvider.region
`,
			xr: `apiVersion: example.org/v1
kind: XBucket
metadata:
  name: b1
spec:
  environmentConfigRefs:
  - apiVersion: apiextensions.crossplane.io/v1alpha1
    kind: EnvironmentConfig
    name: stale
`,
			extra: `apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata:
  name: current
data:
  region: eu-west-1
---
apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata:
  name: stale
data:
  region: us-east-1
`,
			want:        []string{"xr spec.environmentConfigRefs[0].name: D35"},
			wantVerdict: Equivalent,
		},
		"EnvironmentPatchWritesStatus": {
			reason: "An environment ToComposite patch into the XR's status is lost natively (Q-4) and kept by the pipeline: D49, benign.",
			legacy: `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xbuckets
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBucket
  environment:
    environmentConfigs:
    - type: Reference
      ref:
        name: current
    patches:
    - type: ToCompositeFieldPath
      fromFieldPath: region
      toFieldPath: status.region
  resources:
  - name: bucket
    base:
      apiVersion: s3.aws.upbound.io/v1beta1
      kind: Bucket
      spec:
        forProvider: {}
    patches:
    - type: FromEnvironmentFieldPath
      fromFieldPath: region
      toFieldPath: spec.forProvider.region
`,
			xr: `apiVersion: example.org/v1
kind: XBucket
metadata:
  name: b1
spec: {}
`,
			extra: `apiVersion: apiextensions.crossplane.io/v1alpha1
kind: EnvironmentConfig
metadata:
  name: current
data:
  region: eu-west-1
`,
			want:        []string{"xr spec.environmentConfigRefs: D35", "xr status.region: D49"},
			wantVerdict: Equivalent,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := Options{Convert: Convert, Extra: objects(t, tc.extra)}
			r := verifyYAML(t, tc.legacy, tc.converted, tc.xr, o)
			if diff := cmp.Diff(tc.want, summary(r)); diff != "" {
				dump(t, r)
				t.Errorf("\n%s\nVerify(...): -want, +got:\n%s", tc.reason, diff)
			}
			if r.Verdict != tc.wantVerdict || r.Fails(false) {
				t.Errorf("\n%s\nVerify(...): verdict %s, fails %v; want %s, not failing", tc.reason, r.Verdict, r.Fails(false), tc.wantVerdict)
			}
		})
	}
}

// TestIntendedChange: a legacy quirk the converter fixed on request
// (declared in the converted Composition) is an intended change, and the
// same difference undeclared is unexplained.
func TestIntendedChange(t *testing.T) {
	legacy := `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xdisks
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XDisk
  environment:
    environmentConfigs:
    - type: Reference
      ref:
        name: sizes
  resources:
  - name: disk
    base:
      apiVersion: compute.example.org/v1
      kind: Disk
      spec:
        forProvider: {}
    patches:
    - type: FromEnvironmentFieldPath
      fromFieldPath: size
      toFieldPath: spec.forProvider.label
      transforms:
      - type: string
        string:
          type: Format
          fmt: "%d GiB"
`
	converted := func(annotations string) string {
		return `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xdisks
` + annotations + `spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XDisk
  mode: Pipeline
  pipeline:
  - step: environment-configs
    functionRef:
      name: function-environment-configs
    input:
      apiVersion: environmentconfigs.fn.crossplane.io/v1beta1
      kind: Input
      spec:
        environmentConfigs:
        - type: Reference
          ref:
            name: sizes
  - step: patch-and-transform
    functionRef:
      name: function-patch-and-transform
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: disk
        base:
          apiVersion: compute.example.org/v1
          kind: Disk
          spec:
            forProvider: {}
        patches:
        - type: FromEnvironmentFieldPath
          fromFieldPath: size
          toFieldPath: spec.forProvider.label
          transforms:
          - type: convert
            convert:
              toType: int64
          - type: string
            string:
              type: Format
              fmt: "%d GiB"
`
	}
	xr := "apiVersion: example.org/v1\nkind: XDisk\nmetadata:\n  name: d1\n"
	extra := "apiVersion: apiextensions.crossplane.io/v1beta1\nkind: EnvironmentConfig\nmetadata:\n  name: sizes\ndata:\n  size: 100\n"
	cases := map[string]struct {
		reason      string
		annotations string
		want        []string
		wantVerdict Verdict
		wantFails   bool
	}{
		"Declared": {
			reason:      "Environment data is float64 natively, so %d printed %!d(float64=100); the converted Composition declares C325, so printing 100 is intended.",
			annotations: "  annotations:\n    xpmigrate.io/intended-changes: C325\n",
			want:        []string{"resource disk spec.forProvider.label: C325", "xr spec.environmentConfigRefs: D35"},
			wantVerdict: IntendedChange,
		},
		"Undeclared": {
			reason:      "The same fix without the declaration is a behaviour change nobody asked for: unexplained.",
			want:        []string{"resource disk spec.forProvider.label: UNEXPLAINED", "xr spec.environmentConfigRefs: D35"},
			wantVerdict: Different,
			wantFails:   true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := verifyYAML(t, legacy, converted(tc.annotations), xr, Options{Extra: objects(t, extra)})
			if diff := cmp.Diff(tc.want, summary(r)); diff != "" {
				dump(t, r)
				t.Errorf("\n%s\nVerify(...): -want, +got:\n%s", tc.reason, diff)
			}
			if r.Verdict != tc.wantVerdict || r.Fails(false) != tc.wantFails {
				t.Errorf("\n%s\nVerify(...): verdict %s, fails %v; want %s, %v", tc.reason, r.Verdict, r.Fails(false), tc.wantVerdict, tc.wantFails)
			}
		})
	}
}

// TestReadyFlipShown: when the XR's Ready condition differs between the
// sides (a template skipped for a Required patch: legacy Ready=False
// listing it, the pipeline Ready=True), the sample's verdict line says so,
// the condition is a difference of its own, and the gap is breaking.
func TestReadyFlipShown(t *testing.T) {
	dir := "testdata/gaps/required-existing/"
	r := verifyYAML(t, string(readFile(t, dir+"legacy.yaml")), string(readFile(t, dir+"converted.yaml")), string(readFile(t, dir+"xr.yaml")),
		Options{Observed: objects(t, string(readFile(t, dir+"observed.yaml")))})
	s := r.Samples[0]
	if diff := cmp.Diff(&ReadyFlip{Legacy: "False", Pipeline: "True"}, s.Ready); diff != "" {
		t.Errorf("Verify(...).Samples[0].Ready: -want, +got:\n%s", diff)
	}
	found := false
	for _, d := range s.Differences {
		if d.Aspect == AspectCondition && d.Path.String() == "Ready" {
			found = true
			if d.Gap == nil || d.Gap.Code != "D23" || d.Gap.Class != ClassBreaking {
				t.Errorf("XR condition Ready: gap %+v, want breaking D23", d.Gap)
			}
		}
	}
	if !found {
		t.Errorf("Verify(...): no difference for the XR's Ready condition: %v", summary(r))
	}
	var b strings.Builder
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	if want := "XR Ready: legacy False, pipeline True"; !strings.Contains(strings.SplitN(b.String(), "\n", 4)[2], want) {
		t.Errorf("Write(text): the sample's verdict line lacks %q:\n%s", want, b.String())
	}
}

// TestAlphaFunctionsVerify: a Composition that still carries the alpha
// spec.functions (pruned by the API server since Crossplane 1.14) is
// converted as the cluster ran it, and verifies as equivalent.
func TestAlphaFunctionsVerify(t *testing.T) {
	legacy := `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: xthings
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XThing
  functions:
  - name: fn
    type: Container
    container:
      image: fn:v1
  resources:
  - name: r
    base:
      apiVersion: nop.crossplane.io/v1alpha1
      kind: NopResource
      spec: {}
    patches:
    - fromFieldPath: spec.v
      toFieldPath: spec.out
`
	r := verifyYAML(t, legacy, "", "apiVersion: example.org/v1\nkind: XThing\nmetadata:\n  name: t1\nspec:\n  v: hello\n", Options{Convert: Convert})
	if r.Verdict != Equivalent || r.Fails(true) {
		dump(t, r)
		t.Errorf("Verify(spec.functions): verdict %s, want equivalent", r.Verdict)
	}
}
