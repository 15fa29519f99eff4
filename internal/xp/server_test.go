package xp

import "testing"

func TestIsServerField(t *testing.T) {
	cases := map[string]struct {
		reason string
		k      string
		want   bool
	}{
		"UID":               {reason: "The API server sets uid.", k: "uid", want: true},
		"ManagedFields":     {reason: "The API server sets managedFields.", k: "managedFields", want: true},
		"SelfLink":          {reason: "Older API servers set selfLink.", k: "selfLink", want: true},
		"Name":              {reason: "A manifest sets its name.", k: "name", want: false},
		"Annotations":       {reason: "Annotations are the manifest's; only one of them marks an export.", k: "annotations", want: false},
		"CaseMatters":       {reason: "Metadata keys are case-sensitive.", k: "UID", want: false},
		"LastAppliedIsNone": {reason: "The last-applied annotation is not a metadata field.", k: AnnotationLastApplied, want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := IsServerField(tc.k); got != tc.want {
				t.Errorf("%s\nIsServerField(%q): want %t, got %t", tc.reason, tc.k, tc.want, got)
			}
		})
	}
}
