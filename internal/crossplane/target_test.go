package crossplane

import "testing"

func TestParseTarget(t *testing.T) {
	cases := map[string]struct {
		reason  string
		in      string
		want    Target
		wantErr bool
	}{
		"Empty": {reason: "No target is v1.", in: "", want: V1},
		"V1":    {reason: "v1 is v1.", in: "v1", want: V1},
		"V2":    {reason: "v2 is v2.", in: "v2", want: V2},
		"V3":    {reason: "Other lines are refused.", in: "v3", wantErr: true},
		"Case":  {reason: "Targets are lower case.", in: "V2", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ParseTarget(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("\n%s\nParseTarget(%q): want error %t, got %v", tc.reason, tc.in, tc.wantErr, err)
			}
			if got != tc.want {
				t.Errorf("\n%s\nParseTarget(%q): want %q, got %q", tc.reason, tc.in, tc.want, got)
			}
		})
	}
}
