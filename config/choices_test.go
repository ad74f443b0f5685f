package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The picker's choices: the settings' connections by name, then the
// profiles of the AWS config ([default], [profile X]) and credentials
// ([X]) files, each once; the files where AWS_CONFIG_FILE and
// AWS_SHARED_CREDENTIALS_FILE say, else ~/.aws.
func TestChoices(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("AWS_CONFIG_FILE", "")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "")
	if err := os.MkdirAll(filepath.Join(home, ".aws"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(home, ".aws", name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("config", "[default]\nregion = eu-west-1\n\n[profile prod]\nrole_arn = arn:aws:iam::1:role/r\n  [ profile dev ]\n[sso-session corp]\nsso_region = eu-west-1\n[services local]\ndynamodb =\n  endpoint_url = http://127.0.0.1:8000\n")
	write("credentials", "[default]\naws_access_key_id = x\n[ci]\naws_access_key_id = y\n")
	if got, want := AWSProfiles(), []string{"ci", "default", "dev", "prod"}; !slices.Equal(got, want) {
		t.Errorf("profiles %q, want %q", got, want)
	}
	s := DefaultSettings()
	s.Connections["prod-readonly"] = ConnectionSettings{Region: "eu-west-1", Profile: "prod"}
	s.Connections["local"] = ConnectionSettings{Endpoint: "http://127.0.0.1:8000", Writes: true}
	got := Choices(s)
	want := []Choice{
		{Name: "local", Where: "http://127.0.0.1:8000 · writes allowed"},
		{Name: "prod-readonly", Where: "eu-west-1 · profile prod"},
		{Name: "ci", Profile: true}, {Name: "default", Profile: true}, {Name: "dev", Profile: true}, {Name: "prod", Profile: true},
	}
	if !slices.Equal(got, want) {
		t.Errorf("choices\n%+v, want\n%+v", got, want)
	}
	if got[0].Label() != "connection local" || got[2].Label() != "profile ci" {
		t.Errorf("labels %q %q", got[0].Label(), got[2].Label())
	}
	// The variables name other files; a missing one has no profiles.
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(home, "other"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(home, "none"))
	if err := os.WriteFile(filepath.Join(home, "other"), []byte("[profile elsewhere]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := AWSProfiles(); !slices.Equal(got, []string{"elsewhere"}) {
		t.Errorf("from AWS_CONFIG_FILE: %q", got)
	}
}

// Switching leaves behind what named the old connection on the command
// line, and keeps how requests are made.
func TestConnectionSwitched(t *testing.T) {
	c := Connection{Table: "App", Profile: "dev", Region: "eu-west-1", Endpoint: "http://127.0.0.1:1", Name: "local", Timeout: 7, MaxAttempts: 2}
	p := c.Switched(Choice{Name: "prod", Profile: true})
	if p.Profile != "prod" || p.Name != NoConnection || p.Table != "" || p.Region != "" || p.Endpoint != "" || p.Timeout != 7 || p.MaxAttempts != 2 {
		t.Errorf("to a profile: %+v", p)
	}
	n := c.Switched(Choice{Name: "prod-readonly"})
	if n.Name != "prod-readonly" || n.Profile != "" || n.Endpoint != "" || n.Region != "" || n.Timeout != 7 {
		t.Errorf("to a connection: %+v", n)
	}
}
