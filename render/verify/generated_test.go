package verify

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/redact"
	"github.com/xpmigrate/xpmigrate/render"
	"github.com/xpmigrate/xpmigrate/render/verify/gaps"
)

// TestGeneratedNamesEverywhere checks that the names each engine generates
// for composed resources (legacy: 5 random characters, the pipeline: 12 hex
// digits) compare as placeholders wherever they appear: in names, in
// connection details, in annotations and fields patches write, in the XR's
// status.
func TestGeneratedNamesEverywhere(t *testing.T) {
	xr := `
apiVersion: example.org/v1
kind: XDB
metadata: {name: db1, uid: 00000000-0000-4000-8000-000000000002}
spec: {}
`
	cases := map[string]struct {
		reason string
		comp   string
		want   []string
	}{
		"ConnectionDetailFromName": {
			reason: "A connection detail read from metadata.name of a template without a fixed name.",
			comp: `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: dbs}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XDB}
  resources:
  - name: db
    base: {apiVersion: sql.example.org/v1, kind: Database, spec: {forProvider: {}}}
    connectionDetails:
    - {name: db-name, fromFieldPath: metadata.name}
    - {name: url, fromFieldPath: metadata.name}
    readinessChecks: [{type: None}]
`,
		},
		"NameInAnnotationsFieldsAndStatus": {
			reason: "A generated name copied into the XR's status, a field and an annotation of another resource.",
			comp: `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: dbs}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XDB}
  resources:
  - name: db
    base: {apiVersion: sql.example.org/v1, kind: Database, spec: {forProvider: {}}}
    patches:
    - {type: ToCompositeFieldPath, fromFieldPath: metadata.name, toFieldPath: status.dbName}
    readinessChecks: [{type: None}]
  - name: user
    base: {apiVersion: sql.example.org/v1, kind: User, spec: {forProvider: {}}}
    patches:
    - {fromFieldPath: status.dbName, toFieldPath: "metadata.annotations[example.org/db]"}
    - fromFieldPath: status.dbName
      toFieldPath: spec.forProvider.database
      transforms: [{type: string, string: {type: Format, fmt: "db/%s"}}]
    readinessChecks: [{type: None}]
`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := verifyYAML(t, tc.comp, "", xr, Options{Convert: referenceConvert})
			var unexplained []string
			for _, s := range summary(r) {
				if len(s) > len("UNEXPLAINED") && s[len(s)-len("UNEXPLAINED"):] == "UNEXPLAINED" {
					unexplained = append(unexplained, s)
				}
			}
			if diff := cmp.Diff(tc.want, unexplained); diff != "" {
				dump(t, r)
				t.Errorf("%s\nVerify(...): unexplained differences -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestCompareConnectionDetails checks connection details compare with
// generated names as placeholders, and that reports show their values
// unless they come from a Secret.
func TestCompareConnectionDetails(t *testing.T) {
	db := func(name string) render.ComposedResource {
		return render.ComposedResource{Name: "db", Rendered: true, Ready: true, Synced: true, Desired: map[string]any{
			"apiVersion": "sql.example.org/v1", "kind": "Database",
			"metadata": map[string]any{"name": name, "generateName": "db1-"},
		}}
	}
	side := func(name string, conn map[string]string) Side {
		out := &render.Outcome{Composed: []render.ComposedResource{db(name)}, ConnectionDetails: map[string][]byte{}}
		for k, v := range conn {
			out.ConnectionDetails[k] = []byte(v)
		}
		return Side{Outcome: out}
	}
	type diff struct {
		Path              string
		Legacy, Pipeline  any
		RawLegacy, RawPip any
	}
	cases := map[string]struct {
		reason   string
		legacy   Side
		pipeline Side
		shown    map[string]bool
		want     []diff
	}{
		"GeneratedNameInValue": {
			reason:   "Each side's generated name compares as the same placeholder, inside longer values too.",
			legacy:   side("db1-bcdfg", map[string]string{"name": "db1-bcdfg", "url": "postgres://db1-bcdfg:5432"}),
			pipeline: side("db1-0123456789ab", map[string]string{"name": "db1-0123456789ab", "url": "postgres://db1-0123456789ab:5432"}),
			shown:    map[string]bool{"name": true, "url": true},
		},
		"ShownValues": {
			reason:   "Values from fields or constants are shown, generated names as placeholders.",
			legacy:   side("db1-bcdfg", map[string]string{"url": "postgres://db1-bcdfg:5432"}),
			pipeline: side("db1-0123456789ab", map[string]string{"url": "postgres://db1-0123456789ab:5433"}),
			shown:    map[string]bool{"url": true},
			want: []diff{{
				Path: "url", Legacy: "postgres://<generated:db>:5432", Pipeline: "postgres://<generated:db>:5433",
				RawLegacy: "postgres://<generated:db>:5432", RawPip: "postgres://<generated:db>:5433",
			}},
		},
		"SecretValuesRedacted": {
			reason:   "Values from a Secret (or of unknown origin) are shown by length and hash only.",
			legacy:   side("db1-bcdfg", map[string]string{"password": "a"}),
			pipeline: side("db1-0123456789ab", map[string]string{"password": "bb"}),
			shown:    map[string]bool{"url": true},
			want: []diff{{
				Path: "password", Legacy: redact.Digest([]byte("a")), Pipeline: redact.Digest([]byte("bb")),
				RawLegacy: "a", RawPip: "bb",
			}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got []diff
			for _, d := range Compare(tc.legacy, tc.pipeline, CompareOptions{ShownConnectionDetails: tc.shown}) {
				rl, rp := d.Raw()
				got = append(got, diff{Path: d.Path.String(), Legacy: valueOf(d.Legacy), Pipeline: valueOf(d.Pipeline), RawLegacy: valueOf(rl), RawPip: valueOf(rp)})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nCompare(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestShownConnectionDetails checks which connection details a report may
// show: those every definition, in either Composition, reads from a field
// or a constant.
func TestShownConnectionDetails(t *testing.T) {
	legacy := objects(t, `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: dbs}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XDB}
  resources:
  - name: db
    base: {apiVersion: sql.example.org/v1, kind: Database}
    connectionDetails:
    - {name: host, fromFieldPath: status.atProvider.host}
    - {name: port, type: FromValue, value: "5432"}
    - {fromConnectionSecretKey: password}
    - {name: user, fromConnectionSecretKey: username}
    - {name: mixed, value: x}
  - name: other
    base: {apiVersion: sql.example.org/v1, kind: User}
    connectionDetails:
    - {name: mixed, fromConnectionSecretKey: token}
`)[0]
	converted := objects(t, `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: dbs}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XDB}
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef: {name: function-patch-and-transform}
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: db
        base: {apiVersion: sql.example.org/v1, kind: Database}
        connectionDetails:
        - {name: host, type: FromFieldPath, fromFieldPath: status.atProvider.host}
        - {name: port, type: FromConnectionSecretKey, fromConnectionSecretKey: port}
        - {name: extra, type: FromValue, value: "1"}
`)[0]
	want := map[string]bool{"host": true, "extra": true}
	got := shownConnectionDetails(gaps.LegacyModel(legacy, DefaultResourceName), gaps.PipelineModel(converted))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("shownConnectionDetails(...): -want, +got:\n%s", diff)
	}
}

// TestConnectionDetailValuesInReport checks a verify report shows the
// values of a connection detail read from a constant, and redacts those
// read from the composed resource's connection Secret.
func TestConnectionDetailValuesInReport(t *testing.T) {
	legacy := `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: dbs}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XDB}
  resources:
  - name: db
    base: {apiVersion: sql.example.org/v1, kind: Database, spec: {writeConnectionSecretToRef: {name: db-conn, namespace: crossplane-system}}}
    connectionDetails:
    - {name: port, value: "5432"}
    - {name: password, fromConnectionSecretKey: password}
    readinessChecks: [{type: None}]
`
	converted := `
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata: {name: dbs}
spec:
  compositeTypeRef: {apiVersion: example.org/v1, kind: XDB}
  mode: Pipeline
  pipeline:
  - step: patch-and-transform
    functionRef: {name: function-patch-and-transform}
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: db
        base: {apiVersion: sql.example.org/v1, kind: Database}
        connectionDetails:
        - {name: port, type: FromValue, value: "5433"}
        - {name: password, type: FromConnectionSecretKey, fromConnectionSecretKey: pw}
        readinessChecks: [{type: None}]
`
	xr := `
apiVersion: example.org/v1
kind: XDB
metadata: {name: db1, uid: 00000000-0000-4000-8000-000000000003}
`
	observed := objects(t, `
apiVersion: sql.example.org/v1
kind: Database
metadata: {name: db1-abcde, annotations: {crossplane.io/composition-resource-name: db}}
spec: {writeConnectionSecretToRef: {name: db-conn, namespace: crossplane-system}}
`)
	secret := objects(t, `
apiVersion: v1
kind: Secret
metadata: {name: db-conn, namespace: crossplane-system}
data: {password: czNjcmV0}
`)
	r := verifyYAML(t, legacy, converted, xr, Options{
		Observed:                  observed,
		Extra:                     secret,
		ObservedConnectionDetails: map[string]map[string][]byte{"db": {"password": []byte("s3cret"), "pw": []byte("other")}},
		Loops:                     1,
	})
	got := map[string][2]any{}
	for _, s := range r.Samples {
		for _, d := range s.Differences {
			if d.Aspect == AspectConnection {
				got[d.Path.String()] = [2]any{valueOf(d.Legacy), valueOf(d.Pipeline)}
			}
		}
	}
	want := map[string][2]any{
		"port":     {"5432", "5433"},
		"password": {redact.Digest([]byte("s3cret")), redact.Digest([]byte("other"))},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		dump(t, r)
		t.Errorf("Verify(...) connection detail values: -want, +got:\n%s", diff)
	}
}
