package patchandtransform

import (
	"fmt"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/google/go-cmp/cmp"
	kptr "k8s.io/utils/ptr"
)

// readyTestObjects are the objects of docs/semantics/legacy.md#test-vectors, as the
// Kubernetes decoder reads them (integers are int64). Each call returns
// fresh copies.
func readyTestObjects() map[string]map[string]any {
	cond := func(status, ltt string) map[string]any {
		return map[string]any{"status": map[string]any{"conditions": []any{
			map[string]any{"type": "Ready", "status": status, "reason": "Available", "lastTransitionTime": ltt},
		}}}
	}
	return map[string]map[string]any{
		// S0 has no status.
		"S0": {"spec": map[string]any{"s": "", "i": int64(3), "f": 1.5, "b": false, "nul": nil}},
		// S1 has a status without conditions.
		"S1": {"status": map[string]any{"atProvider": map[string]any{}}},
		// RT and RF have a Ready condition that is True and False.
		"RT": cond("True", "2024-01-01T00:00:00Z"),
		"RF": cond("False", "2024-01-01T00:00:00Z"),
		// BAD has a Ready condition that is True, but its status cannot be
		// decoded.
		"BAD": cond("True", "yesterday"),
	}
}

func TestIsReady(t *testing.T) {
	type args struct {
		d Dialect
		// on names an object of readyTestObjects; obj, when set, is used
		// instead.
		on     string
		obj    map[string]any
		checks []ReadinessCheck
	}
	type want struct {
		ready bool
		// err is text the error must contain; "" means no error.
		err string
	}

	matchCondition := func(typ, status string) ReadinessCheck {
		return ReadinessCheck{Type: ReadinessCheckTypeMatchCondition, MatchCondition: &MatchConditionReadinessCheck{Type: typ, Status: status}}
	}

	cases := map[string]struct {
		reason string
		args   args
		want   want
	}{
		"RD001DefaultNoStatus": {
			reason: "RD-001: by default an object without status is not ready.",
			args:   args{on: "S0"},
			want:   want{ready: false},
		},
		"RD002DefaultReadyTrue": {
			reason: "RD-002: by default an object whose Ready condition is True is ready.",
			args:   args{on: "RT"},
			want:   want{ready: true},
		},
		"RD003DefaultReadyFalse": {
			reason: "RD-003: by default an object whose Ready condition is False is not ready.",
			args:   args{on: "RF"},
			want:   want{ready: false},
		},
		"RD004DefaultUndecodableStatus": {
			reason: "RD-004: an undecodable status has no conditions, so the object is not ready.",
			args:   args{on: "BAD"},
			want:   want{ready: false},
		},
		"RD005NoneOnS0": {
			reason: "RD-005: None is always ready.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeNone}}},
			want:   want{ready: true},
		},
		"RD005NoneOnRF": {
			reason: "RD-005: None is ready even when the Ready condition is False.",
			args:   args{on: "RF", checks: []ReadinessCheck{{Type: ReadinessCheckTypeNone}}},
			want:   want{ready: true},
		},
		"RD006NonEmptyEmptyString": {
			reason: "RD-006: NonEmpty means exists; an empty string counts.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeNonEmpty, FieldPath: kptr.To("spec.s")}}},
			want:   want{ready: true},
		},
		"RD007NonEmptyNull": {
			reason: "RD-007: NonEmpty means exists; null counts.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeNonEmpty, FieldPath: kptr.To("spec.nul")}}},
			want:   want{ready: true},
		},
		"RD008NonEmptyMissing": {
			reason: "RD-008: NonEmpty on a missing field is not ready.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeNonEmpty, FieldPath: kptr.To("spec.zzz")}}},
			want:   want{ready: false},
		},
		"RD009MatchStringNotAString": {
			reason: "RD-009: MatchString on a number is a fatal error.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchString, FieldPath: kptr.To("spec.i"), MatchString: kptr.To("3")}}},
			want:   want{err: "cannot run readiness check at index 0: spec.i: not a string"},
		},
		"RD010MatchInteger": {
			reason: "RD-010: MatchInteger matches an int64.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchInteger, FieldPath: kptr.To("spec.i"), MatchInteger: kptr.To[int64](3)}}},
			want:   want{ready: true},
		},
		"RD011MatchIntegerOnFloat": {
			reason: "RD-011: MatchInteger on 1.5 is a fatal error.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchInteger, FieldPath: kptr.To("spec.f"), MatchInteger: kptr.To[int64](1)}}},
			want:   want{err: "spec.f: not a (int64) number"},
		},
		"RD012MatchIntegerMissing": {
			reason: "RD-012: MatchInteger on a missing field is not ready.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchInteger, FieldPath: kptr.To("spec.zz"), MatchInteger: kptr.To[int64](1)}}},
			want:   want{ready: false},
		},
		"RD013MatchFalse": {
			reason: "RD-013: MatchFalse matches false.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchFalse, FieldPath: kptr.To("spec.b")}}},
			want:   want{ready: true},
		},
		"RD014MatchFalseMissing": {
			reason: "RD-014: a missing field is not false.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchFalse, FieldPath: kptr.To("spec.zz")}}},
			want:   want{ready: false},
		},
		"RD015MatchTrueNotABool": {
			reason: "RD-015: MatchTrue on a string is a fatal error.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchTrue, FieldPath: kptr.To("spec.s")}}},
			want:   want{err: "spec.s: not a bool"},
		},
		"RD016MatchConditionUnknownWithStatus": {
			reason: "RD-016: a status without the condition gives Unknown.",
			args:   args{on: "S1", checks: []ReadinessCheck{matchCondition("Ready", "Unknown")}},
			want:   want{ready: true},
		},
		"RD017MatchConditionUnknownWithoutStatus": {
			reason: "RD-017: without a status the condition's status is empty, not Unknown.",
			args:   args{on: "S0", checks: []ReadinessCheck{matchCondition("Ready", "Unknown")}},
			want:   want{ready: false},
		},
		"RD018MatchConditionOtherType": {
			reason: "RD-018: a Synced condition that is absent is Unknown, not False.",
			args:   args{on: "RF", checks: []ReadinessCheck{matchCondition("Synced", "False")}},
			want:   want{ready: false},
		},
		"RD019AllChecksMustPass": {
			reason: "RD-019: the checks are ANDed.",
			args: args{on: "S0", checks: []ReadinessCheck{
				{Type: ReadinessCheckTypeNone},
				{Type: ReadinessCheckTypeNonEmpty, FieldPath: kptr.To("spec.zzz")},
			}},
			want: want{ready: false},
		},
		"RD020EmptyMatchString": {
			reason: "RD-020: natively an empty matchString is unset, which makes the check invalid.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchString, FieldPath: kptr.To("spec.s"), MatchString: kptr.To("")}}},
			want:   want{err: `cannot run readiness check at index 0: invalid: type "MatchString" requires a match string`},
		},
		"RD020NilMatchString": {
			reason: "RD-020: the same error when the front-end has already mapped the empty matchString to nil.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchString, FieldPath: kptr.To("spec.s")}}},
			want:   want{err: `invalid: type "MatchString" requires a match string`},
		},
		"RD021ZeroMatchInteger": {
			reason: "RD-021: natively a zero matchInteger is unset, which makes the check invalid.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchInteger, FieldPath: kptr.To("spec.i"), MatchInteger: kptr.To[int64](0)}}},
			want:   want{err: `invalid: type "MatchInteger" requires a match integer`},
		},
		"RD022UnknownType": {
			reason: "RD-022: an unknown type is invalid.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: "Foo"}}},
			want:   want{err: `invalid: unknown type "Foo"`},
		},
		"RD023NonEmptyWithoutFieldPath": {
			reason: "RD-023: NonEmpty needs a field path.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeNonEmpty}}},
			want:   want{err: `invalid: type "NonEmpty" requires a field path`},
		},
		"NativeEmptyFieldPathIsUnset": {
			reason: "Natively an empty fieldPath is unset.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchTrue, FieldPath: kptr.To("")}}},
			want:   want{err: `invalid: type "MatchTrue" requires a field path`},
		},
		"NativeMatchConditionWithoutCondition": {
			reason: "Natively a MatchCondition check needs its matchCondition.",
			args:   args{on: "RT", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchCondition}}},
			want:   want{err: `invalid: type "MatchCondition" requires a valid match condition`},
		},
		"NativeMatchTrueOnFalse": {
			reason: "MatchTrue on false is not ready.",
			args: args{on: "S0", checks: []ReadinessCheck{
				{Type: ReadinessCheckTypeNone},
				{Type: ReadinessCheckTypeMatchTrue, FieldPath: kptr.To("spec.b")},
			}},
			want: want{ready: false},
		},
		"NativeErrorIndexOne": {
			reason: "An error at the second check is reported at index 1.",
			args: args{on: "S0", checks: []ReadinessCheck{
				{Type: ReadinessCheckTypeNone},
				{Type: ReadinessCheckTypeMatchString, FieldPath: kptr.To("spec.b"), MatchString: kptr.To("x")},
			}},
			want: want{err: "cannot run readiness check at index 1: spec.b: not a string"},
		},
		"NativeFirstFailureStops": {
			reason: "A check that is not ready stops the run before a later check could error.",
			args: args{on: "S0", checks: []ReadinessCheck{
				{Type: ReadinessCheckTypeNonEmpty, FieldPath: kptr.To("spec.zzz")},
				{Type: "Foo"},
			}},
			want: want{ready: false},
		},
		"NativeUnparsableFieldPath": {
			reason: "An unparsable field path is a fatal error.",
			args:   args{on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeNonEmpty, FieldPath: kptr.To("spec..s")}}},
			want:   want{err: "cannot run readiness check at index 0: cannot parse path"},
		},
		"NativeMatchConditionTrue": {
			reason: "MatchCondition matches the condition's status.",
			args:   args{on: "RT", checks: []ReadinessCheck{matchCondition("Ready", "True")}},
			want:   want{ready: true},
		},
		"NativeMatchConditionUndecodable": {
			reason: "An undecodable status matches no condition status, Unknown included.",
			args:   args{on: "BAD", checks: []ReadinessCheck{matchCondition("Ready", "Unknown")}},
			want:   want{ready: false},
		},
		"NativeMatchConditionNullStatus": {
			reason: "A null status decodes as a status without conditions, so the condition is Unknown.",
			args:   args{obj: map[string]any{"status": nil}, checks: []ReadinessCheck{matchCondition("Ready", "Unknown")}},
			want:   want{ready: true},
		},
		"NativeMatchStringEqual": {
			reason: "MatchString matches an equal string.",
			args:   args{obj: map[string]any{"status": map[string]any{"phase": "Running"}}, checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchString, FieldPath: kptr.To("status.phase"), MatchString: kptr.To("Running")}}},
			want:   want{ready: true},
		},
		"PT38FunctionMatchIntegerTrue": {
			reason: "PT-38: an int64 5 matches matchInteger 5.",
			args:   args{d: Function, obj: map[string]any{"spec": map[string]any{"someNum": int64(5)}}, checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchInteger, FieldPath: kptr.To("spec.someNum"), MatchInteger: kptr.To[int64](5)}}},
			want:   want{ready: true},
		},
		"PT38FunctionMatchIntegerFalse": {
			reason: "PT-38: an int64 6 does not match matchInteger 5.",
			args:   args{d: Function, obj: map[string]any{"spec": map[string]any{"someNum": int64(6)}}, checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchInteger, FieldPath: kptr.To("spec.someNum"), MatchInteger: kptr.To[int64](5)}}},
			want:   want{ready: false},
		},
		"PT38FunctionMatchTrueMissing": {
			reason: "PT-38: MatchTrue on a missing bool is not ready, without error.",
			args:   args{d: Function, obj: map[string]any{"spec": map[string]any{}}, checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchTrue, FieldPath: kptr.To("spec.someBool")}}},
			want:   want{ready: false},
		},
		"PT38FunctionInvalidPath": {
			reason: "PT-38: an invalid path is an error wrapped with the check's index.",
			args:   args{d: Function, obj: map[string]any{}, checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchInteger, FieldPath: kptr.To("metadata..uid"), MatchInteger: kptr.To[int64](42)}}},
			want:   want{err: "cannot run readiness check at index 0"},
		},
		"PT40FunctionMatchIntegerOnWireNumber": {
			reason: "PT-40: observed numbers arrive as float64, so MatchInteger errors in the function.",
			args: args{
				d:      Function,
				obj:    WireNumbers(map[string]any{"status": map[string]any{"replicas": int64(3)}}).(map[string]any),
				checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchInteger, FieldPath: kptr.To("status.replicas"), MatchInteger: kptr.To[int64](3)}},
			},
			want: want{err: "cannot run readiness check at index 0: status.replicas: not a (int64) number"},
		},
		"FunctionDefault": {
			reason: "With no checks the function too wants the Ready condition True.",
			args:   args{d: Function, on: "RT"},
			want:   want{ready: true},
		},
		"FunctionDefaultUndecodableStatus": {
			reason: "The function decodes the status as native does; an undecodable one is not ready.",
			args:   args{d: Function, on: "BAD"},
			want:   want{ready: false},
		},
		"FunctionEmptyMatchStringLiteral": {
			reason: "D22: the function accepts an empty matchString and compares it literally.",
			args:   args{d: Function, on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchString, FieldPath: kptr.To("spec.s"), MatchString: kptr.To("")}}},
			want:   want{ready: true},
		},
		"FunctionZeroMatchIntegerLiteral": {
			reason: "D22: the function accepts a zero matchInteger and compares it literally.",
			args:   args{d: Function, obj: map[string]any{"spec": map[string]any{"n": int64(0)}}, checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchInteger, FieldPath: kptr.To("spec.n"), MatchInteger: kptr.To[int64](0)}}},
			want:   want{ready: true},
		},
		"FunctionMatchConditionWithoutStatus": {
			reason: "Without a status the function too sees an empty condition status, not Unknown.",
			args:   args{d: Function, on: "S0", checks: []ReadinessCheck{matchCondition("Ready", "Unknown")}},
			want:   want{ready: false},
		},
		"FunctionMatchConditionUnknown": {
			reason: "A status without the condition gives Unknown in the function too.",
			args:   args{d: Function, on: "S1", checks: []ReadinessCheck{matchCondition("Ready", "Unknown")}},
			want:   want{ready: true},
		},
		"FunctionMatchConditionWireNumbers": {
			reason: "A float64 observedGeneration still decodes, so the condition is found.",
			args: args{
				d: Function,
				obj: WireNumbers(map[string]any{"status": map[string]any{"conditions": []any{
					map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": "2024-01-01T00:00:00Z", "observedGeneration": int64(2)},
				}}}).(map[string]any),
				checks: []ReadinessCheck{matchCondition("Ready", "True")},
			},
			want: want{ready: true},
		},
		"FunctionUnknownType": {
			reason: "The function reports an unknown type as a field error.",
			args:   args{d: Function, on: "S0", checks: []ReadinessCheck{{Type: "Foo"}}},
			want:   want{err: `cannot run readiness check at index 0: invalid: type: Invalid value: "Foo": unknown readiness check type`},
		},
		"FunctionNilMatchString": {
			reason: "The function needs a matchString for MatchString.",
			args:   args{d: Function, on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchString, FieldPath: kptr.To("spec.s")}}},
			want:   want{err: "invalid: matchString: Required value: cannot be nil for type MatchString"},
		},
		"FunctionNilMatchInteger": {
			reason: "The function needs a matchInteger for MatchInteger.",
			args:   args{d: Function, on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchInteger, FieldPath: kptr.To("spec.i")}}},
			want:   want{err: "invalid: matchInteger: Required value: cannot be nil for type MatchInteger"},
		},
		"FunctionNoFieldPath": {
			reason: "The function needs a fieldPath for NonEmpty.",
			args:   args{d: Function, on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeNonEmpty}}},
			want:   want{err: "invalid: fieldPath: Required value: cannot be empty"},
		},
		"FunctionEmptyFieldPathReadsWholeObject": {
			reason: "The function keeps an empty fieldPath as written; it names the whole object, which exists.",
			args:   args{d: Function, on: "S0", checks: []ReadinessCheck{{Type: ReadinessCheckTypeNonEmpty, FieldPath: kptr.To("")}}},
			want:   want{ready: true},
		},
		"FunctionMatchConditionEmptyType": {
			reason: "The function needs the matchCondition's type.",
			args:   args{d: Function, on: "RT", checks: []ReadinessCheck{matchCondition("", "True")}},
			want:   want{err: "invalid: matchCondition.type: Required value: cannot be empty for type MatchCondition"},
		},
		"FunctionMatchConditionEmptyStatus": {
			reason: "The function needs the matchCondition's status.",
			args:   args{d: Function, on: "RT", checks: []ReadinessCheck{matchCondition("Ready", "")}},
			want:   want{err: "invalid: matchCondition.status: Required value: cannot be empty for type MatchCondition"},
		},
		"FunctionMatchConditionNil": {
			reason: "Upstream crashes on a MatchCondition check without matchCondition; the core reports an error instead.",
			args:   args{d: Function, on: "RT", checks: []ReadinessCheck{{Type: ReadinessCheckTypeMatchCondition}}},
			want:   want{err: "cannot run readiness check at index 0: invalid: matchCondition: Required value"},
		},
		"UnknownDialect": {
			reason: "A dialect the core does not know is an error.",
			args:   args{d: Dialect(42), on: "RT"},
			want:   want{err: "unknown dialect 42"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			obj := tc.args.obj
			if obj == nil {
				obj = readyTestObjects()[tc.args.on]
			}
			got, err := IsReady(tc.args.d, fieldpath.Pave(obj), tc.args.checks)
			if !errContainsText(err, tc.want.err) {
				t.Errorf("\n%s\nIsReady(...): want error containing %q, got %q", tc.reason, tc.want.err, errTextForTest(err))
			}
			if diff := cmp.Diff(tc.want.ready, got); diff != "" {
				t.Errorf("\n%s\nIsReady(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestIsReadyDialectsAgree runs the docs/semantics/legacy.md#test-vectors checks that involve no invalid
// check in both dialects on the same int64 objects: only validation and the
// value model tell the dialects apart, never the checks themselves.
func TestIsReadyDialectsAgree(t *testing.T) {
	checks := map[string][]ReadinessCheck{
		"Default":        nil,
		"None":           {{Type: ReadinessCheckTypeNone}},
		"NonEmpty":       {{Type: ReadinessCheckTypeNonEmpty, FieldPath: kptr.To("spec.nul")}},
		"MatchInteger":   {{Type: ReadinessCheckTypeMatchInteger, FieldPath: kptr.To("spec.i"), MatchInteger: kptr.To[int64](3)}},
		"MatchFalse":     {{Type: ReadinessCheckTypeMatchFalse, FieldPath: kptr.To("spec.b")}},
		"MatchCondition": {{Type: ReadinessCheckTypeMatchCondition, MatchCondition: &MatchConditionReadinessCheck{Type: "Ready", Status: "Unknown"}}},
	}
	for name, cs := range checks {
		for on, obj := range readyTestObjects() {
			t.Run(name+"/"+on, func(t *testing.T) {
				native, nerr := IsReady(Native, fieldpath.Pave(obj), cs)
				function, ferr := IsReady(Function, fieldpath.Pave(obj), cs)
				if diff := cmp.Diff(errTextForTest(nerr), errTextForTest(ferr)); diff != "" {
					t.Errorf("IsReady(...) errors: -native, +function:\n%s", diff)
				}
				if diff := cmp.Diff(native, function); diff != "" {
					t.Errorf("IsReady(...): -native, +function:\n%s", diff)
				}
			})
		}
	}
}

func ExampleIsReady() {
	o := fieldpath.Pave(map[string]any{
		"status": map[string]any{"atProvider": map[string]any{"state": "available"}},
	})
	checks := []ReadinessCheck{
		{Type: ReadinessCheckTypeMatchString, FieldPath: kptr.To("status.atProvider.state"), MatchString: kptr.To("available")},
	}
	ready, err := IsReady(Native, o, checks)
	fmt.Println(ready, err)

	// No checks: the Ready condition must be True, and there is none.
	ready, err = IsReady(Native, o, nil)
	fmt.Println(ready, err)
	// Output:
	// true <nil>
	// false <nil>
}
