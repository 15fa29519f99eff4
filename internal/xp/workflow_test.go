package xp

import "testing"

func TestEscapeWorkflow(t *testing.T) {
	cases := map[string]struct {
		reason       string
		in           string
		wantData     string
		wantProperty string
	}{
		"Plain": {
			reason:   "Text without special characters is unchanged.",
			in:       "Composition x differs",
			wantData: "Composition x differs", wantProperty: "Composition x differs",
		},
		"PercentFirst": {
			reason:   "'%' is escaped before the escapes it introduces, so %0A in the text stays literal.",
			in:       "100% %0A",
			wantData: "100%25 %250A", wantProperty: "100%25 %250A",
		},
		"LineBreaks": {
			reason:   "CR and LF would end the command.",
			in:       "a\r\nb",
			wantData: "a%0D%0Ab", wantProperty: "a%0D%0Ab",
		},
		"ColonComma": {
			reason:   "':' and ',' separate properties, so only property values escape them.",
			in:       "D21: a, b",
			wantData: "D21: a, b", wantProperty: "D21%3A a%2C b",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := EscapeWorkflowData(tc.in); got != tc.wantData {
				t.Errorf("%s\nEscapeWorkflowData(%q): want %q, got %q", tc.reason, tc.in, tc.wantData, got)
			}
			if got := EscapeWorkflowProperty(tc.in); got != tc.wantProperty {
				t.Errorf("%s\nEscapeWorkflowProperty(%q): want %q, got %q", tc.reason, tc.in, tc.wantProperty, got)
			}
		})
	}
}
