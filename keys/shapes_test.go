package keys

import "testing"

func TestValueShape(t *testing.T) {
	tests := []struct{ key, want string }{
		{"2023-04-01T12:00:00.001Z", ShapeTimestamp},
		{"2020-04-24T14:40:00", ShapeTimestamp},
		{"2020-04-24 14:40", ShapeTimestamp},
		{"2021-03-09T19:11:53+00:00", ShapeTimestamp},
		{"2021-03-09T19:11:53,5-0530", ShapeTimestamp},
		{"20190925T010101", ShapeTimestamp},
		{"20190925T010101Z", ShapeTimestamp},
		{"2019-09-24T010101", ShapeTimestamp}, // ISO date, compact time
		{"2019-09-24T0101", ShapeTimestamp},
		{"2019-09-24T250101", ""}, // no 25th hour
		{"2024-03-01", ShapeDate},
		{"2024-03", ShapeDate},
		{"20240301", ShapeDate},
		{"20241399", ShapeNumber}, // no 13th month: a number that looks like a date
		{"1700000000", ShapeEpochSecond},
		{"1700000000000", ShapeEpochMilli},
		{"0700000000", ShapeNumber}, // zero-padded: an id, not a time
		{"01", ShapeNumber},
		{"42", ShapeNumber},
		{"3.14", ShapeNumber},
		{"9b2f6c1e-4a7d-4e0b-8f53-0c2d5a7e9f11", ShapeUUID},
		{"01ARZ3NDEKTSV4RRFFQ69G5FAV", ShapeULID},
		{"2HXVMBeQSTk2MD3IGJdVV33Xnqm", ShapeKSUID},
		{"3fa9c0d2e1b4", ShapeHex},
		{"2025-03-01#A17", ShapeDate}, // a value that goes on after a delimiter
		{"1_2", ShapeNumber},
		{"12abc", ""},
		{"meta", ""},
		{"", ""},
		{"2024-13-01", ""},
	}
	for _, tt := range tests {
		if got := ValueShape(tt.key); got != tt.want {
			t.Errorf("ValueShape(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

func TestRunName(t *testing.T) {
	tests := []struct{ first, last, want string }{
		{"2023-04-01T12:00:00Z", "2023-04-01T14:00:00Z", ShapeTimestamp},
		{"01", "12", ShapeNumber},
		{"01", "2024-03-01", ShapeValue},
		{"12abc", "12abd", ShapeValue},
	}
	for _, tt := range tests {
		if got := RunName(tt.first, tt.last); got != tt.want {
			t.Errorf("RunName(%q, %q) = %q, want %q", tt.first, tt.last, got, tt.want)
		}
	}
}

// The time shapes are timestamps and dates only.
func TestTimeShape(t *testing.T) {
	for name, want := range map[string]bool{ShapeTimestamp: true, ShapeDate: true, ShapeNumber: false, ShapeEpochSecond: false, ShapeValue: false, "": false} {
		if got := TimeShape(name); got != want {
			t.Errorf("TimeShape(%q) = %v, want %v", name, got, want)
		}
	}
}
