package gaps_test

import (
	"maps"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/gaps"
	"github.com/xpmigrate/xpmigrate/render/verify/verifytest"
)

// TestGapRules renders each testdata/gaps case (a reproducer from the
// measurements of docs/semantics/differences.md or a gap of
// docs/reference/gaps.md#known-gaps, hand
// converted) and checks every difference is found and classified by the
// expected rule. Each case names the gap it shows.
func TestGapRules(t *testing.T) {
	for name, tc := range gapRuleCases() {
		t.Run(name, func(t *testing.T) {
			c := verifytest.Load(t, filepath.Join("testdata", "gaps", tc.dir))
			if tc.opts != nil {
				tc.opts(&c.Opts)
			}
			got := summary(c.Verify(t))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nVerify(%s): -want, +got:\n%s", tc.reason, tc.dir, diff)
			}
		})
	}
}

// TestGapRulesIgnoreErrorText renders the testdata/gaps cases (of
// TestGapRules and TestWarningGapRules) with every
// engine error reworded: the rules classify by the errors' types, so a
// reworded message must not turn a known gap into an unexplained
// difference.
func TestGapRulesIgnoreErrorText(t *testing.T) {
	gaps.SetRewordErr(t, func(err error) error { return reworded{err: err} })
	cases := gapRuleCases()
	maps.Copy(cases, warningGapRuleCases())
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := verifytest.Load(t, filepath.Join("testdata", "gaps", tc.dir))
			if tc.opts != nil {
				tc.opts(&c.Opts)
			}
			got := summary(c.Verify(t))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nVerify(%s) with reworded engine errors: -want, +got:\n%s", tc.reason, tc.dir, diff)
			}
		})
	}
}

type gapRuleCase struct {
	reason string
	dir    string
	opts   func(*verify.Options)
	want   []string
}

func gapRuleCases() map[string]gapRuleCase {
	return map[string]gapRuleCase{
		"FirstReconcileLags": {
			reason: "observed O9: readiness None, a FromValue detail and a ToComposite from spec converge one reconcile later (D19, D26, D8)",
			dir:    "first-reconcile",
			want: []string{
				"readiness db: D19 (transient)",
				"xr status.engine: D8 (transient)",
				"condition Ready: D19 (transient)",
				"connection-detail port: D26 (transient)",
			},
		},
		"ReadinessOnDesiredField": {
			reason: "observed O9: a readiness check on a spec field the desired state changes (D19)",
			dir:    "readiness-desired",
			want: []string{
				"readiness queue: D19 (transient)",
				"condition Ready: D19 (transient)",
			},
		},
		"FatalTransform": {
			reason: "observed O4: a map transform miss skips one legacy resource but fails the whole pipeline (D10)",
			dir:    "fatal-transform",
			want: []string{
				"error: D10",
				"presence b: D10",
				"xr spec.resourceRefs: D10",
				"condition Ready: D10",
			},
		},
		"Integers": {
			reason: "observed O5: %d on integers (Format and Combine) and MatchInteger (D30, D21)",
			dir:    "integers",
			want: []string{
				"resource r spec.forProvider.endpoint: D30",
				"resource r spec.forProvider.name: D30",
				"readiness r: D21",
				"condition Ready: D21",
			},
		},
		"XRSpecWrite": {
			reason: "observed O6: ToComposite into spec and metadata is not persisted, and what reads it never sees it (D5)",
			dir:    "xr-spec-write",
			want: []string{
				"xr metadata.labels.id: D5",
				"xr spec.id: D5",
				"resource r metadata.annotations.id: D5",
			},
		},
		"RequiredExisting": {
			reason: "observed O10: a Required miss on an existing resource (D9) and its effect on the XR conditions (D23)",
			dir:    "required-existing",
			want: []string{
				"presence required: D9",
				"readiness required: D9",
				"condition Ready: D23",
				"condition Synced: D23",
			},
		},
		"RequiredNew": {
			reason: "observed O13 and O10: a Required miss on a new resource; legacy keeps its ref and reports it unsynced (D7, D23)",
			dir:    "required-new",
			want: []string{
				"xr spec.resourceRefs: D7",
				"condition Synced: D23",
			},
		},
		"RequiredToComposite": {
			reason: "observed O12: a Required ToComposite miss fails the legacy reconcile only (D46)",
			dir:    "required-to-composite",
			want: []string{
				"error: D46",
				"synced queue: D46",
				"synced topic: D46",
				"condition Ready: D46",
				"condition Synced: D46",
				"readiness topic: D46",
			},
		},
		"AnonymousExisting": {
			reason: "observed O3: existing resources of anonymous templates break the pipeline (D1)",
			dir:    "anonymous-existing",
			want: []string{
				"error: D1",
				"presence resource-0: D1",
				"presence resource-1: D1",
				"xr status.vpcId: D1",
				"condition Ready: D1",
				"condition Synced: D1",
			},
		},
		"AnonymousNew": {
			reason: "D1: the converter names anonymous templates, so their new resources carry the annotation",
			dir:    "anonymous-new",
			want: []string{
				"resource resource-0 metadata.annotations: D1",
				"resource resource-1 metadata.annotations: D1",
			},
		},
		"EnvironmentToXR": {
			reason: "observed O7: environment → XR spec → resource works in one legacy reconcile, never in the pipeline (D14, D5)",
			dir:    "env-to-xr",
			want: []string{
				"resource bucket metadata.annotations.resolvedRegion: D14",
				"xr spec.environmentConfigRefs: D35",
				"xr spec.resolvedRegion: D5",
			},
		},
		"ToEnvironment": {
			reason: "observed O8: ToEnvironment reads the rendered resource in legacy, the observed one in the pipeline (D33)",
			dir:    "to-environment",
			want: []string{
				"resource second spec.forProvider.region: D33 (transient)",
			},
		},
		"DefaultDataAlone": {
			reason: "observed O11 A: defaultData without environmentConfigs (D39)",
			dir:    "default-data",
			want: []string{
				"resource bucket spec.forProvider.region: D39",
			},
		},
		"DefaultDataSelectorSkipped": {
			reason: "observed O11 B: defaultData with a selector that requests nothing (D39)",
			dir:    "default-data-selector",
			want: []string{
				"resource bucket spec.forProvider.region: D39",
				"xr spec.environmentConfigRefs: D35",
			},
		},
		"EnvironmentFunctionV07OnV1": {
			reason: "observed O1: function-environment-configs v0.7 gets no EnvironmentConfigs from Crossplane v1 (D43)",
			dir:    "environment-v07",
			opts:   func(o *verify.Options) { o.EnvironmentFunction = "v0.7" },
			want: []string{
				"resource bucket spec.forProvider.region: D43",
				"xr spec.environmentConfigRefs: D35",
			},
		},
		"EnvironmentFunctionV06OnV1": {
			reason: "observed O1: with v0.6 (the converter's pin for v1) the environment arrives",
			dir:    "environment-v07",
			want: []string{
				"xr spec.environmentConfigRefs: D35",
			},
		},
		"ResolvePinned": {
			reason: "observed O2: legacy reuses spec.environmentConfigRefs, the pipeline selects again (D35)",
			dir:    "resolve-pinned",
			want: []string{
				"resource nop metadata.annotations.valueFromEnv: D35",
			},
		},
		"BaseNameJoinLargeInteger": {
			reason: "D11 base metadata.name, D31 Join with a two-byte separator, D32 an integer above 2^53",
			dir:    "base-name-join",
			want: []string{
				"resource db metadata.name: D11",
				"resource db spec.forProvider.big: D32",
				"resource db spec.forProvider.zones: D31",
				"xr spec.resourceRefs[0].name: D11",
			},
		},
		"ResourceRefsIndex": {
			reason: "D7: a patch reading spec.resourceRefs[0] gets another resource's name once the pipeline sorts the references",
			dir:    "resource-refs-index",
			want: []string{
				"resource server spec.forProvider.volumeName: D7",
			},
		},
		"ReadinessError": {
			reason: "D20: a readiness check on a field of the wrong type fails the legacy reconcile; the pipeline warns",
			dir:    "readiness-error",
			want: []string{
				"error: D20",
				"synced counter: D20",
				"condition Ready: D20",
				"condition Synced: D20",
			},
		},
		"KindChange": {
			reason: "D18: an existing resource of another kind: legacy refuses, the pipeline reuses the name",
			dir:    "kind-change",
			want: []string{
				"error: D18",
				"presence store: D18",
				"xr spec.resourceRefs[0].kind: D18",
				"condition Ready: D18",
				"condition Synced: D18",
			},
		},
		"ControlledElsewhere": {
			reason: "D17: an existing resource controlled by another XR: legacy fails, the pipeline composes a new one",
			dir:    "controlled-elsewhere",
			want: []string{
				"error: D17",
				"synced store: D17",
				"condition Ready: D17",
				"condition Synced: D17",
			},
		},
		"LabelNotString": {
			reason: "D37: a label value read from a number fails function-environment-configs; legacy printed it",
			dir:    "label-not-string",
			want: []string{
				"error: D37",
				"presence nop: D37",
				"xr spec.environmentConfigRefs: D35",
				"xr spec.resourceRefs: D37",
				"condition Ready: D37",
				"condition Synced: D37",
			},
		},
		"SortMissing": {
			reason: "D38: a selected EnvironmentConfig without the sort field fails legacy; the function sorts it first",
			dir:    "sort-missing",
			want: []string{
				"error: D38",
				"presence nop: D38",
				"xr spec.resourceRefs: D38",
				"condition Ready: D38",
				"condition Synced: D38",
			},
		},
		"EnvironmentKindKey": {
			reason: "D42: a data key named kind reads as Environment natively and as the data in the pipeline",
			dir:    "env-kind-key",
			want: []string{
				"resource nop spec.forProvider.flavour: D42",
				"xr spec.environmentConfigRefs: D35",
			},
		},
		"SelectorNoLabels": {
			reason: "D36: a Single selector whose only label is absent fails legacy, the pipeline skips it",
			dir:    "selector-no-labels",
			want: []string{
				"error: D36",
				"presence bucket: D36",
				"xr spec.resourceRefs: D36",
				"condition Ready: D36",
				"condition Synced: D36",
			},
		},
	}
}
