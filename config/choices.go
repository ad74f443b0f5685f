package config

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Choice is a connection the UI can switch to: a named connection of the
// settings file, or a profile of the AWS shared config and credentials
// files (as `aws configure list-profiles` lists them).
type Choice struct {
	Name    string
	Profile bool   // an AWS profile, not a settings connection
	Where   string // what it points at, for the picker: the connection's endpoint, region, profile
}

// Label is how the header and the picker name the choice.
func (c Choice) Label() string {
	if c.Profile {
		return "profile " + c.Name
	}
	return "connection " + c.Name
}

// Choices lists what the UI's connection picker offers: the settings'
// connections by name, then the AWS profiles by name (a profile that is
// in both files once). Reading the AWS files fails quietly: a missing or
// unreadable file has no profiles.
func Choices(s Settings) []Choice {
	var out []Choice
	names := make([]string, 0, len(s.Connections))
	for n := range s.Connections {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		cs := s.Connections[n]
		var where []string
		for _, w := range []string{cs.Endpoint, cs.Region} {
			if w != "" {
				where = append(where, w)
			}
		}
		if cs.Profile != "" {
			where = append(where, "profile "+cs.Profile)
		}
		if cs.Writes {
			where = append(where, "writes allowed")
		}
		out = append(out, Choice{Name: n, Where: strings.Join(where, " · ")})
	}
	for _, p := range AWSProfiles() {
		out = append(out, Choice{Name: p, Profile: true})
	}
	return out
}

// AWSProfiles are the profile names of the AWS shared config file
// ([default], [profile NAME]) and credentials file ([NAME]), where the SDK
// looks for them (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE, else
// ~/.aws), sorted, each once.
func AWSProfiles() []string {
	home, _ := os.UserHomeDir()
	cfgFile, credFile := os.Getenv("AWS_CONFIG_FILE"), os.Getenv("AWS_SHARED_CREDENTIALS_FILE")
	if cfgFile == "" {
		cfgFile = filepath.Join(home, ".aws", "config")
	}
	if credFile == "" {
		credFile = filepath.Join(home, ".aws", "credentials")
	}
	var names []string
	for _, s := range iniSections(cfgFile) {
		if s == "default" {
			names = append(names, s)
		} else if p, ok := strings.CutPrefix(s, "profile "); ok {
			names = append(names, strings.TrimSpace(p))
		}
	}
	names = append(names, iniSections(credFile)...)
	slices.Sort(names)
	return slices.Compact(slices.DeleteFunc(names, func(n string) bool { return n == "" }))
}

// AWSProfileSetting is the value of key in profile's section of the AWS
// shared config file (where AWSProfiles looks for it; [default] or
// [profile NAME]), "" when it is not set or the file cannot be read: the
// AWS CLI's settings that are no part of the SDK's, such as output.
func AWSProfileSetting(profile, key string) string {
	path := os.Getenv("AWS_CONFIG_FILE")
	if path == "" {
		home, _ := os.UserHomeDir()
		path = filepath.Join(home, ".aws", "config")
	}
	section := "profile " + profile
	if profile == "default" {
		section = "default"
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			in = strings.Join(strings.Fields(l[1:len(l)-1]), " ") == section
			continue
		}
		if k, v, ok := strings.Cut(l, "="); ok && in && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// iniSections are the section names of an INI file, in order; none when
// it cannot be read.
func iniSections(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			out = append(out, strings.TrimSpace(l[1:len(l)-1]))
		}
	}
	return out
}

// Switched is the connection c becomes when the user picks ch: a settings
// connection by its name, or a profile with no named connection; what the
// command line named of the old one (endpoint, region, profile, table) is
// left behind, so the choice's own settings and the profile's apply. The
// time-outs, attempts, --debug and the MFA prompt stay.
func (c Connection) Switched(ch Choice) Connection {
	c.Table, c.Endpoint, c.Region, c.Profile = "", "", "", ""
	if ch.Profile {
		c.Name, c.Profile = NoConnection, ch.Name
	} else {
		c.Name = ch.Name
	}
	return c
}
