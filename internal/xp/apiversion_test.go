package xp

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitAPIVersion(t *testing.T) {
	type want struct{ group, version string }
	cases := map[string]struct {
		reason     string
		apiVersion string
		want       want
	}{
		"Grouped":   {reason: "A grouped apiVersion splits at its '/'.", apiVersion: "apiextensions.crossplane.io/v1", want: want{GroupAPIExtensions, "v1"}},
		"Core":      {reason: "The core group is empty.", apiVersion: "v1", want: want{"", "v1"}},
		"Empty":     {reason: "An empty apiVersion has neither group nor version.", apiVersion: "", want: want{}},
		"LastSlash": {reason: "The version follows the last '/'.", apiVersion: "a/b/v2", want: want{"a/b", "v2"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			g, v := SplitAPIVersion(tc.apiVersion)
			if diff := cmp.Diff(tc.want, want{g, v}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\nSplitAPIVersion(%q): -want, +got:\n%s", tc.reason, tc.apiVersion, diff)
			}
			if got := Group(tc.apiVersion); got != tc.want.group {
				t.Errorf("%s\nGroup(%q): want %q, got %q", tc.reason, tc.apiVersion, tc.want.group, got)
			}
		})
	}
}

func TestIsFunctionAPIVersion(t *testing.T) {
	cases := map[string]struct {
		reason     string
		apiVersion string
		want       bool
	}{
		"V1":       {reason: "Functions are served at pkg.crossplane.io/v1.", apiVersion: "pkg.crossplane.io/v1", want: true},
		"V1Beta1":  {reason: "Functions were served at pkg.crossplane.io/v1beta1 first.", apiVersion: "pkg.crossplane.io/v1beta1", want: true},
		"V1Alpha1": {reason: "No Function was served at v1alpha1.", apiVersion: "pkg.crossplane.io/v1alpha1", want: false},
		"Meta":     {reason: "A package's metadata group is another group.", apiVersion: "meta.pkg.crossplane.io/v1", want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := IsFunctionAPIVersion(tc.apiVersion); got != tc.want {
				t.Errorf("%s\nIsFunctionAPIVersion(%q): want %t, got %t", tc.reason, tc.apiVersion, tc.want, got)
			}
		})
	}
}
