package plan

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
)

func providerCRDs(t *testing.T) []map[string]any {
	t.Helper()
	docs, err := manifest.LoadPath("testdata/crds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return manifest.Objects(docs)
}

// TestTwinProviderConfigRefGetsKind: issue 25 item 1. A live v1 managed
// resource whose template set no providerConfigRef carries the API
// server's default {name: default}; its twin must name the kind the
// namespaced CRD requires, or step 2 is refused after step 1 ran.
func TestTwinProviderConfigRefGetsKind(t *testing.T) {
	ref := func(kind string) map[string]any { return map[string]any{"kind": kind, "name": "default"} }
	cases := map[string]struct {
		reason   string
		kind     string
		noCRDs   bool
		resource string
		want     any
	}{
		"APIServerDefault": {
			reason:   "The bucket template sets no providerConfigRef: the live {name: default} gets the kind of the twin CRD's default.",
			resource: "bucket",
			want:     ref("ClusterProviderConfig"),
		},
		"FromTheMapping": {
			reason:   "The db template sets providerConfigRef: the mapping's kind (C441) is kept.",
			resource: "db",
			want:     ref("ClusterProviderConfig"),
		},
		"Flag": {
			reason:   "--provider-config-kind names the kind where the mapping names none.",
			kind:     convert.KindProviderConfig,
			resource: "bucket",
			want:     ref("ProviderConfig"),
		},
		"NoCRD": {
			reason:   "Without the twin's CRD the kind is ClusterProviderConfig, the namespaced providers' default.",
			noCRDs:   true,
			resource: "bucket",
			want:     ref("ClusterProviderConfig"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, l, d := fixture(t, nil)
			o := Options{Convert: convertOptions(t), ProviderConfigKind: tc.kind}
			if tc.noCRDs {
				s, err := PlanSchemas(nil, nil, d)
				if err != nil {
					t.Fatal(err)
				}
				o.Schemas = s
			}
			p, err := Build(context.Background(), l, d, o)
			if err != nil {
				t.Fatal(err)
			}
			x := p.XRs[0]
			if len(x.Errors) > 0 {
				t.Fatalf("\n%s\nBuild(...): errors %v", tc.reason, x.Errors)
			}
			var got any
			for _, tw := range x.twins {
				if jsonobj.String(tw, "metadata", "annotations", "crossplane.io/composition-resource-name") == tc.resource {
					got = jsonobj.Value(tw, "spec", "providerConfigRef")
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nthe twin's providerConfigRef: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestPlanRefusesWhatItsCRDRefuses: issue 25 item 1. Every object a step
// applies is validated at plan time against the CRD of its kind: a twin
// the API server would refuse makes the plan fail, naming the file, the
// object and the field, and the XR gets no steps.
func TestPlanRefusesWhatItsCRDRefuses(t *testing.T) {
	cases := map[string]struct {
		reason string
		edit   func(name string, o map[string]any)
		// plant edits the twin of resource "bucket" in the step objects
		// after Build, which then validates them again.
		plant func(twin map[string]any)
		want  []string
	}{
		"Valid": {
			reason: "The fixture's objects all validate.",
		},
		"BadManagementPolicy": {
			reason: "A live management policy outside the twin CRD's enum: the twin (step 2) would be refused; step 1 and step 4 leave the policies as they were, which the API server lets pass (ratcheting).",
			edit: func(name string, o map[string]any) {
				if name == "orders-abcde-bk2" {
					o["spec"].(map[string]any)["managementPolicies"] = []any{"Observe", "Orphan"}
				}
			},
			want: []string{
				`team-a/orders/2-adopt.yaml: NopResource.nop.m.example.org team-a/orders-abcde-bk2 would be refused: spec.managementPolicies[1]: Unsupported value: "Orphan": supported values: "Observe", "Create", "Update", "Delete", "LateInitialize", "*"`,
			},
		},
		"MissingProviderConfigKind": {
			reason: "A twin whose providerConfigRef has no kind is refused by the namespaced CRD.",
			plant: func(twin map[string]any) {
				delete(jsonobj.Value(twin, "spec", "providerConfigRef").(map[string]any), "kind")
			},
			want: []string{
				"team-a/orders/2-adopt.yaml: NopResource.nop.m.example.org team-a/orders-abcde-bk2 would be refused: spec.providerConfigRef.kind: Required value",
			},
		},
		"CELRule": {
			reason: "The CRD's CEL rule is evaluated: a twin that may create needs spec.forProvider.size (step 2, and step 4's restored policies).",
			plant:  func(twin map[string]any) { delete(jsonobj.Value(twin, "spec", "forProvider").(map[string]any), "size") },
			want: []string{
				"team-a/orders/2-adopt.yaml: NopResource.nop.m.example.org team-a/orders-abcde-bk2 would be refused: spec: Invalid value: spec.forProvider.size is a required parameter",
				"team-a/orders/4-restore.yaml: NopResource.nop.m.example.org team-a/orders-abcde-bk2 would be refused: spec: Invalid value: spec.forProvider.size is a required parameter",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, l, d := fixture(t, tc.edit)
			p, err := Build(context.Background(), l, d, Options{Convert: convertOptions(t)})
			if err != nil {
				t.Fatal(err)
			}
			x := p.XRs[0]
			got := x.Errors
			if tc.plant != nil {
				if len(got) > 0 {
					t.Fatalf("\n%s\nBuild(...) before planting: %v", tc.reason, got)
				}
				for _, o := range x.Steps[StepAdopt-1].objects[x.file(StepAdopt, "adopt")] {
					if jsonobj.String(o, "metadata", "annotations", "crossplane.io/composition-resource-name") == "bucket" {
						tc.plant(o)
					}
				}
				s, err := PlanSchemas(nil, providerCRDs(t), d)
				if err != nil {
					t.Fatal(err)
				}
				if got, err = x.validateSteps(context.Background(), s, l.Composites[0], x.definitions(d)); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("\n%s\nplan errors: -want, +got:\n%s", tc.reason, diff)
			}
			if tc.plant == nil && len(tc.want) > 0 && len(x.Steps) > 0 {
				t.Errorf("\n%s\nan XR whose objects would be refused has %d steps, want none", tc.reason, len(x.Steps))
			}
		})
	}
}

// TestPlanNotesWhatItCannotValidate: a kind no CRD given serves is not
// validated, and the plan says so.
func TestPlanNotesWhatItCannotValidate(t *testing.T) {
	p := build(t, nil)
	x := p.XRs[0]
	var notes []string
	for _, n := range x.Notes {
		if strings.Contains(n, "was not validated") {
			notes = append(notes, n[:strings.Index(n, " was not validated")])
		}
	}
	// The claim and the legacy XR: their CRDs are the cluster's (Crossplane
	// v1 derived them), neither given nor in the export.
	want := []string{"example.org/v1alpha1 NopDB", "example.org/v1alpha1 XNopDB"}
	if diff := cmp.Diff(want, notes); diff != "" {
		t.Errorf("kinds not validated: -want, +got:\n%s", diff)
	}
}

// TestCheckRevalidatesStep: issue 25 item 1. --check-step N validates the
// objects step N applies, merged over the live ones, against the CRDs the
// cluster (here the export) serves: a twin its CRD refuses blocks step 2.
func TestCheckRevalidatesStep(t *testing.T) {
	m, l, d := fixture(t, nil)
	for _, c := range d.Compositions {
		m.add(c)
	}
	for _, crd := range providerCRDs(t) {
		m.add(crd)
	}
	p, err := Build(context.Background(), l, d, Options{Convert: convertOptions(t)})
	if err != nil {
		t.Fatal(err)
	}
	x := p.XRs[0]
	applyStep(t, m, x, StepProtect)
	if r, err := Check(context.Background(), m, x, StepAdopt); err != nil || len(r) > 0 {
		t.Fatalf("step 2 after step 1: want allowed, got %v, %v", r, err)
	}
	for _, o := range x.Steps[StepAdopt-1].objects[x.file(StepAdopt, "adopt")] {
		if jsonobj.String(o, "metadata", "annotations", "crossplane.io/composition-resource-name") == "bucket" {
			delete(jsonobj.Value(o, "spec", "providerConfigRef").(map[string]any), "kind")
		}
	}
	r, err := Check(context.Background(), m, x, StepAdopt)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"team-a/orders/2-adopt.yaml: NopResource.nop.m.example.org team-a/orders-abcde-bk2 would be refused: spec.providerConfigRef.kind: Required value"}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("step 2 with a twin its CRD refuses: -want reasons, +got:\n%s", diff)
	}
}

// TestCheckRefusesTwinThatChangesAField: issue 26, scenario 3's planted
// fault. A twin of step 2 whose spec.forProvider differs from the live
// managed resource it replaces (the manifest edited after planning, or the
// managed resource changed since) would make the provider update the
// external resource once it observes the twin: step 2's check refuses it,
// naming the field, before anything reaches the cloud. A twin that agrees
// with the live managed resource is allowed.
func TestCheckRefusesTwinThatChangesAField(t *testing.T) {
	cases := map[string]struct {
		reason string
		edit   func(twin map[string]any)
		want   []string
	}{
		"Unchanged": {
			reason: "The twins as planned carry the live managed resources' parameters: allowed.",
			edit:   func(map[string]any) {},
		},
		"ChangedField": {
			reason: "A twin whose spec.forProvider.size differs from the live one's is refused.",
			edit: func(twin map[string]any) {
				jsonobj.Value(twin, "spec", "forProvider").(map[string]any)["size"] = "huge"
			},
			want: []string{`team-a/orders/2-adopt.yaml: NopResource.nop.m.example.org team-a/orders-abcde-db1 sets spec.forProvider.size "huge", the live NopResource.nop.example.org orders-abcde-db1 has "large": the provider would change the external resource`},
		},
		"AddedField": {
			reason: "A twin with a parameter the live managed resource does not have is refused.",
			edit: func(twin map[string]any) {
				jsonobj.Value(twin, "spec", "forProvider").(map[string]any)["encrypted"] = true
			},
			want: []string{`team-a/orders/2-adopt.yaml: NopResource.nop.m.example.org team-a/orders-abcde-db1 sets spec.forProvider.encrypted true, the live NopResource.nop.example.org orders-abcde-db1 has nothing: the provider would change the external resource`},
		},
		"AddedInitProvider": {
			reason: "spec.initProvider is compared too.",
			edit: func(twin map[string]any) {
				spec := twin["spec"].(map[string]any)
				spec["initProvider"] = map[string]any{"zone": "b"}
			},
			want: []string{`team-a/orders/2-adopt.yaml: NopResource.nop.m.example.org team-a/orders-abcde-db1 sets spec.initProvider {"zone":"b"}, the live NopResource.nop.example.org orders-abcde-db1 has nothing: the provider would change the external resource`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m, l, d := fixture(t, nil)
			for _, c := range d.Compositions {
				m.add(c)
			}
			p, err := Build(context.Background(), l, d, Options{Convert: convertOptions(t)})
			if err != nil {
				t.Fatal(err)
			}
			x := p.XRs[0]
			applyStep(t, m, x, StepProtect)
			for _, o := range x.Steps[StepAdopt-1].objects[x.file(StepAdopt, "adopt")] {
				if jsonobj.String(o, "metadata", "annotations", "crossplane.io/composition-resource-name") == "db" {
					tc.edit(o)
				}
			}
			got, err := Check(context.Background(), m, x, StepAdopt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nCheck(step 2): -want reasons, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
