package patchandtransform

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/google/go-cmp/cmp"
	kptr "k8s.io/utils/ptr"
)

// connectionTestObject is the composed object of the CD vectors
// (docs/semantics/legacy.md#test-vectors), as the Kubernetes decoder reads it (integers are int64).
func connectionTestObject() map[string]any {
	return map[string]any{
		"metadata": map[string]any{"name": "cdname", "generation": int64(4)},
		"spec": map[string]any{
			"m":   map[string]any{"a": int64(1), "b": "<x>"},
			"nul": nil,
			"f":   1.5,
			"i":   int64(3),
			"b":   true,
		},
	}
}

// connectionTestSecret is the connection secret of docs/semantics/legacy.md#test-vectors.
func connectionTestSecret() map[string][]byte {
	return map[string][]byte{"user": []byte("admin"), "pw": []byte("s3cr3t")}
}

// errTextForTest is the text of err, or "" when err is nil.
func errTextForTest(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// errContainsText reports whether err's text contains want; a want of ""
// stands for no error.
func errContainsText(err error, want string) bool {
	if want == "" {
		return err == nil
	}
	return err != nil && strings.Contains(err.Error(), want)
}

func TestExtractConnectionDetails(t *testing.T) {
	type args struct {
		d        Dialect
		composed map[string]any
		secret   map[string][]byte
		noSecret bool
		details  []ConnectionDetail
	}
	type want struct {
		out map[string][]byte
		// err is text the error must contain; "" means no error.
		err string
	}

	cases := map[string]struct {
		reason string
		args   args
		want   want
	}{
		"CD001FromConnectionSecretKey": {
			reason: "CD-001: a FromConnectionSecretKey detail copies the secret's bytes for the key.",
			args: args{
				details: []ConnectionDetail{{Name: "username", Type: ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: kptr.To("user")}},
			},
			want: want{out: map[string][]byte{"username": []byte("admin")}},
		},
		"CD002SecretKeyMissing": {
			reason: "CD-002: a key the secret does not hold is skipped, not an error.",
			args: args{
				details: []ConnectionDetail{{Name: "missing", Type: ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: kptr.To("nope")}},
			},
			want: want{out: map[string][]byte{}},
		},
		"CD003FromValue": {
			reason: "CD-003: a FromValue detail yields its value.",
			args: args{
				details: []ConnectionDetail{{Name: "port", Type: ConnectionDetailTypeFromValue, Value: kptr.To("5432")}},
			},
			want: want{out: map[string][]byte{"port": []byte("5432")}},
		},
		"CD004FromFieldPathString": {
			reason: "CD-004: a string read from the object is used as is.",
			args: args{
				details: []ConnectionDetail{{Name: "name", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("metadata.name")}},
			},
			want: want{out: map[string][]byte{"name": []byte("cdname")}},
		},
		"CD005FromFieldPathObject": {
			reason: "CD-005: an object is JSON-encoded with sorted keys and HTML escaping.",
			args: args{
				details: []ConnectionDetail{{Name: "map", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("spec.m")}},
			},
			want: want{out: map[string][]byte{"map": []byte(`{"a":1,"b":"\u003cx\u003e"}`)}},
		},
		"CD006FromFieldPathNull": {
			reason: "CD-006: a null value is present and encodes as the four characters null.",
			args: args{
				details: []ConnectionDetail{{Name: "nul", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("spec.nul")}},
			},
			want: want{out: map[string][]byte{"nul": []byte("null")}},
		},
		"CD007FromFieldPathScalars": {
			reason: "CD-007: numbers and bools are JSON-encoded.",
			args: args{
				details: []ConnectionDetail{
					{Name: "f", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("spec.f")},
					{Name: "i", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("spec.i")},
					{Name: "b", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("spec.b")},
					{Name: "g", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("metadata.generation")},
				},
			},
			want: want{out: map[string][]byte{"f": []byte("1.5"), "i": []byte("3"), "b": []byte("true"), "g": []byte("4")}},
		},
		"CD008FromFieldPathUnreadable": {
			reason: "CD-008: a missing path and an unparsable path are both skipped silently.",
			args: args{
				details: []ConnectionDetail{
					{Name: "gone", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("spec.gone")},
					{Name: "x", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("spec..x")},
				},
			},
			want: want{out: map[string][]byte{}},
		},
		"CD009LaterDuplicateWins": {
			reason: "CD-009: a later detail with the same name overwrites an earlier one.",
			args: args{
				details: []ConnectionDetail{
					{Name: "port", Type: ConnectionDetailTypeFromValue, Value: kptr.To("5432")},
					{Name: "port", Type: ConnectionDetailTypeFromValue, Value: kptr.To("override")},
				},
			},
			want: want{out: map[string][]byte{"port": []byte("override")}},
		},
		"CD010MissingName": {
			reason: "CD-010: a FromFieldPath detail without a name is a fatal error.",
			args: args{
				details: []ConnectionDetail{{Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("metadata.name")}},
			},
			want: want{err: "connection detail is missing name"},
		},
		"CD011InferredSecretKeyName": {
			reason: "CD-011: the front-end infers type FromConnectionSecretKey and name user; the core extracts it.",
			args: args{
				details: []ConnectionDetail{{Name: "user", Type: ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: kptr.To("user")}},
			},
			want: want{out: map[string][]byte{"user": []byte("admin")}},
		},
		"CD012InferredFromValue": {
			reason: "CD-012: value wins the inference; the other source fields are ignored.",
			args: args{
				details: []ConnectionDetail{{Name: "x", Type: ConnectionDetailTypeFromValue, FromFieldPath: kptr.To("a"), Value: kptr.To("v")}},
			},
			want: want{out: map[string][]byte{"x": []byte("v")}},
		},
		"CD013InferredSecretKey": {
			reason: "CD-013: fromConnectionSecretKey beats fromFieldPath; key k is not in the secret, so nothing is extracted.",
			args: args{
				details: []ConnectionDetail{{Name: "y", Type: ConnectionDetailTypeFromConnectionSecretKey, FromFieldPath: kptr.To("a"), FromConnectionSecretKey: kptr.To("k")}},
			},
			want: want{out: map[string][]byte{}},
		},
		"CD014NothingSet": {
			reason: "CD-014: an empty detail is inferred as FromConnectionSecretKey with no name, which is fatal.",
			args: args{
				details: []ConnectionDetail{{Type: ConnectionDetailTypeFromConnectionSecretKey}},
			},
			want: want{err: "connection detail is missing name"},
		},
		"CD015ExplicitTypeNoName": {
			reason: "CD-015: an explicit FromFieldPath type gets no name from fromConnectionSecretKey, which is fatal.",
			args: args{
				details: []ConnectionDetail{{Type: ConnectionDetailTypeFromFieldPath, FromConnectionSecretKey: kptr.To("k")}},
			},
			want: want{err: "connection detail is missing name"},
		},
		"NativeFromValueWithoutValue": {
			reason: "Native fails on a FromValue detail without a value.",
			args: args{
				details: []ConnectionDetail{{Name: "port", Type: ConnectionDetailTypeFromValue}},
			},
			want: want{err: `connection detail of type "FromValue" value is not set`},
		},
		"NativeSecretKeyWithoutKey": {
			reason: "Native fails on a FromConnectionSecretKey detail without a key.",
			args: args{
				details: []ConnectionDetail{{Name: "user", Type: ConnectionDetailTypeFromConnectionSecretKey}},
			},
			want: want{err: `connection detail of type "FromConnectionSecretKey" key is not set`},
		},
		"NativeFieldPathWithoutPath": {
			reason: "Native fails on a FromFieldPath detail without a path.",
			args: args{
				details: []ConnectionDetail{{Name: "name", Type: ConnectionDetailTypeFromFieldPath}},
			},
			want: want{err: `connection detail of type "FromFieldPath" fromFieldPath is not set`},
		},
		"NativeErrorDiscardsEarlierDetails": {
			reason: "An error discards the details already extracted for this resource.",
			args: args{
				details: []ConnectionDetail{
					{Name: "port", Type: ConnectionDetailTypeFromValue, Value: kptr.To("5432")},
					{Type: ConnectionDetailTypeFromValue, Value: kptr.To("x")},
				},
			},
			want: want{err: "connection detail is missing name"},
		},
		"NativeUnknownTypeIgnored": {
			reason: "Native ignores a detail of a type it does not know.",
			args: args{
				details: []ConnectionDetail{{Name: "x", Type: "Foo", Value: kptr.To("v")}},
			},
			want: want{out: map[string][]byte{}},
		},
		"NativeNoSecret": {
			reason: "Without a secret every FromConnectionSecretKey detail is skipped.",
			args: args{
				noSecret: true,
				details:  []ConnectionDetail{{Name: "user", Type: ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: kptr.To("user")}},
			},
			want: want{out: map[string][]byte{}},
		},
		"NativeNilSecretValueSkipped": {
			reason: "A key whose value is nil counts as absent, while an empty value is extracted.",
			args: args{
				secret: map[string][]byte{"nil": nil, "empty": {}},
				details: []ConnectionDetail{
					{Name: "nil", Type: ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: kptr.To("nil")},
					{Name: "empty", Type: ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: kptr.To("empty")},
				},
			},
			want: want{out: map[string][]byte{"empty": {}}},
		},
		"NativeFieldPathThroughNonObject": {
			reason: "A read error other than not-found (here a string indexed as an object) is skipped silently.",
			args: args{
				details: []ConnectionDetail{{Name: "x", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("metadata.name.x")}},
			},
			want: want{out: map[string][]byte{}},
		},
		"NoDetails": {
			reason: "No details give an empty map.",
			args:   args{},
			want:   want{out: map[string][]byte{}},
		},
		"PT31FunctionFetchConfigSuccess": {
			reason: "PT-31: the function extracts secret keys, values and field paths from the observed (float64) object; a missing key is omitted.",
			args: args{
				d:        Function,
				composed: WireNumbers(map[string]any{"metadata": map[string]any{"name": "test", "generation": int64(4)}}).(map[string]any),
				secret:   map[string][]byte{"foo": []byte("a"), "bar": []byte("b")},
				details: []ConnectionDetail{
					{Name: "bar", Type: ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: kptr.To("bar")},
					{Name: "none", Type: ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: kptr.To("none")},
					{Name: "convfoo", Type: ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: kptr.To("foo")},
					{Name: "fixed", Type: ConnectionDetailTypeFromValue, Value: kptr.To("value")},
					{Name: "name", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("metadata.name")},
					{Name: "generation", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("metadata.generation")},
				},
			},
			want: want{out: map[string][]byte{
				"bar":        []byte("b"),
				"convfoo":    []byte("a"),
				"fixed":      []byte("value"),
				"name":       []byte("test"),
				"generation": []byte("4"),
			}},
		},
		"PT32FunctionMissingName": {
			reason: "PT-32: the function front-end rejects a nameless detail first; should one reach the core, it fails as the function's own extraction does, and nothing is extracted.",
			args: args{
				d:       Function,
				details: []ConnectionDetail{{Type: ConnectionDetailTypeFromValue}},
			},
			want: want{err: "invalid: name: Required value: name is required"},
		},
		"FunctionMissingType": {
			reason: "The function checks the type before the name.",
			args: args{
				d:       Function,
				details: []ConnectionDetail{{}},
			},
			want: want{err: "invalid: type: Required value: connection detail type is required"},
		},
		"FunctionUnknownType": {
			reason: "The function rejects a type it does not know, where native ignores it.",
			args: args{
				d:       Function,
				details: []ConnectionDetail{{Name: "x", Type: "Foo", Value: kptr.To("v")}},
			},
			want: want{err: `invalid: type: Invalid value: "Foo": unknown connection detail type`},
		},
		"FunctionFromValueWithoutValue": {
			reason: "The function rejects a FromValue detail without a value.",
			args: args{
				d:       Function,
				details: []ConnectionDetail{{Name: "x", Type: ConnectionDetailTypeFromValue}},
			},
			want: want{err: "invalid: value: Required value: value connection detail requires a value"},
		},
		"FunctionSecretKeyWithoutKey": {
			reason: "The function rejects a FromConnectionSecretKey detail without a key.",
			args: args{
				d:       Function,
				details: []ConnectionDetail{{Name: "x", Type: ConnectionDetailTypeFromConnectionSecretKey}},
			},
			want: want{err: "invalid: fromConnectionSecretKey: Required value: from connection secret key connection detail requires a key"},
		},
		"FunctionFieldPathWithoutPath": {
			reason: "The function rejects a FromFieldPath detail without a path.",
			args: args{
				d:       Function,
				details: []ConnectionDetail{{Name: "x", Type: ConnectionDetailTypeFromFieldPath}},
			},
			want: want{err: "invalid: fromFieldPath: Required value: from field path connection detail requires a field path"},
		},
		"FunctionWireNumbers": {
			reason: "Observed numbers are float64 in the function; integral ones still encode without a fraction.",
			args: args{
				d:        Function,
				composed: WireNumbers(connectionTestObject()).(map[string]any),
				details: []ConnectionDetail{
					{Name: "f", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("spec.f")},
					{Name: "i", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("spec.i")},
					{Name: "m", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("spec.m")},
					{Name: "nul", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("spec.nul")},
				},
			},
			want: want{out: map[string][]byte{
				"f":   []byte("1.5"),
				"i":   []byte("3"),
				"m":   []byte(`{"a":1,"b":"\u003cx\u003e"}`),
				"nul": []byte("null"),
			}},
		},
		"FunctionFieldPathUnreadable": {
			reason: "The function too skips a path it cannot read, whatever the reason.",
			args: args{
				d: Function,
				details: []ConnectionDetail{
					{Name: "gone", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("spec.gone")},
					{Name: "x", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("spec..x")},
					{Name: "y", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("metadata.name.x")},
				},
			},
			want: want{out: map[string][]byte{}},
		},
		"UnknownDialect": {
			reason: "A dialect the core does not know is an error.",
			args:   args{d: Dialect(42)},
			want:   want{err: "unknown dialect 42"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			obj := tc.args.composed
			if obj == nil {
				obj = connectionTestObject()
			}
			secret := tc.args.secret
			if secret == nil && !tc.args.noSecret {
				secret = connectionTestSecret()
			}
			got, err := ExtractConnectionDetails(tc.args.d, fieldpath.Pave(obj), secret, tc.args.details)
			if !errContainsText(err, tc.want.err) {
				t.Errorf("\n%s\nExtractConnectionDetails(...): want error containing %q, got %q", tc.reason, tc.want.err, errTextForTest(err))
			}
			if diff := cmp.Diff(tc.want.out, got); diff != "" {
				t.Errorf("\n%s\nExtractConnectionDetails(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestConnectionDetailsMergeTemplates is CD-016: the XR's details are the
// union of every rendered template's, in template order, later wins.
func TestConnectionDetailsMergeTemplates(t *testing.T) {
	templates := map[string]struct {
		reason    string
		templates [][]ConnectionDetail
		want      map[string][]byte
	}{
		"CD016LaterTemplateWins": {
			reason: "CD-016: two templates set host; the later template's value is published.",
			templates: [][]ConnectionDetail{
				{{Name: "host", Type: ConnectionDetailTypeFromValue, Value: kptr.To("a")}},
				{{Name: "host", Type: ConnectionDetailTypeFromValue, Value: kptr.To("b")}},
			},
			want: map[string][]byte{"host": []byte("b")},
		},
		"DisjointKeysKept": {
			reason: "Keys only an earlier template sets are kept.",
			templates: [][]ConnectionDetail{
				{{Name: "host", Type: ConnectionDetailTypeFromValue, Value: kptr.To("a")}, {Name: "port", Type: ConnectionDetailTypeFromValue, Value: kptr.To("1")}},
				{{Name: "host", Type: ConnectionDetailTypeFromValue, Value: kptr.To("b")}},
			},
			want: map[string][]byte{"host": []byte("b"), "port": []byte("1")},
		},
	}
	for name, tc := range templates {
		t.Run(name, func(t *testing.T) {
			xr := map[string][]byte{}
			for i, details := range tc.templates {
				got, err := ExtractConnectionDetails(Native, fieldpath.Pave(connectionTestObject()), nil, details)
				if err != nil {
					t.Fatalf("\n%s\nExtractConnectionDetails(template %d): unexpected error: %v", tc.reason, i, err)
				}
				maps.Copy(xr, got)
			}
			if diff := cmp.Diff(tc.want, xr); diff != "" {
				t.Errorf("\n%s\nmerged connection details: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func ExampleExtractConnectionDetails() {
	composed := fieldpath.Pave(map[string]any{
		"status": map[string]any{"endpoint": "db.example.org", "port": int64(5432)},
	})
	secret := map[string][]byte{"password": []byte("s3cr3t")}
	details := []ConnectionDetail{
		{Name: "password", Type: ConnectionDetailTypeFromConnectionSecretKey, FromConnectionSecretKey: kptr.To("password")},
		{Name: "host", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("status.endpoint")},
		{Name: "port", Type: ConnectionDetailTypeFromFieldPath, FromFieldPath: kptr.To("status.port")},
		{Name: "user", Type: ConnectionDetailTypeFromValue, Value: kptr.To("admin")},
	}
	out, err := ExtractConnectionDetails(Native, composed, secret, details)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range []string{"host", "password", "port", "user"} {
		fmt.Printf("%s=%s\n", k, out[k])
	}
	// Output:
	// host=db.example.org
	// password=s3cr3t
	// port=5432
	// user=admin
}
