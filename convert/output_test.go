package convert

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOutputFormat(t *testing.T) {
	cases := map[string]struct {
		reason    string
		requested string
		in        string
		want      string
	}{
		"Requested":  {reason: "A requested format wins.", requested: FormatYAML, in: `{"a": 1}`, want: FormatYAML},
		"JSONInput":  {reason: "A JSON input comes back as JSON.", in: " {\"a\": 1}\n", want: FormatJSON},
		"YAMLInput":  {reason: "A YAML input comes back as YAML.", in: "a: 1\n", want: FormatYAML},
		"FlowYAML":   {reason: "A flow mapping that is not valid JSON is YAML.", in: "{a: 1}\n", want: FormatYAML},
		"EmptyInput": {reason: "An empty input is YAML.", in: "", want: FormatYAML},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := OutputFormat(tc.requested, []byte(tc.in)); got != tc.want {
				t.Errorf("\n%s\nOutputFormat(%q, %q): want %q, got %q", tc.reason, tc.requested, tc.in, tc.want, got)
			}
		})
	}
}

func TestStreamJSON(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		want   string
	}{
		"One": {
			reason: "One document is written as itself, as kubectl reads it.",
			in:     "a: 1.50\nb: x\n",
			want:   "{\n  \"a\": 1.5,\n  \"b\": \"x\"\n}\n",
		},
		"Several": {
			reason: "Several documents become a v1 List; empty ones are dropped.",
			in:     "a: 1\n---\n---\nb: 2\n",
			want:   "{\n  \"apiVersion\": \"v1\",\n  \"items\": [\n    {\n      \"a\": 1\n    },\n    {\n      \"b\": 2\n    }\n  ],\n  \"kind\": \"List\"\n}\n",
		},
		"NoEscapedHTML": {
			reason: "Characters HTML escapes are written as they are.",
			in:     "a: '<&>'\n",
			want:   "{\n  \"a\": \"<&>\"\n}\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := StreamJSON([]byte(tc.in))
			if err != nil {
				t.Fatalf("\n%s\nStreamJSON(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("\n%s\nStreamJSON(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestWriteDiagnostics(t *testing.T) {
	d := Diagnostic{Code: "C204", Severity: SeverityWarning, File: "c.yaml", Line: 3, Message: "named"}
	cases := map[string]struct {
		reason string
		format string
		ds     []Diagnostic
		want   string
	}{
		"Text": {
			reason: "Text is one finding per line.",
			format: DiagnosticsText,
			ds:     []Diagnostic{d},
			want:   d.String() + "\n",
		},
		"JSONEmpty": {
			reason: "JSON lists are never null.",
			format: DiagnosticsJSON,
			want:   "{\n  \"file\": \"c.yaml\",\n  \"documents\": [],\n  \"diagnostics\": []\n}\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteDiagnostics(&b, tc.format, "c.yaml", nil, tc.ds); err != nil {
				t.Fatalf("\n%s\nWriteDiagnostics(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, b.String()); diff != "" {
				t.Errorf("\n%s\nWriteDiagnostics(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
