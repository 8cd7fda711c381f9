// Generated from buildProgram() in src/cli/main.ts: do not edit by hand.
// Regenerate with `CMDB_UPDATE_COMPLETION=1 node --test dist/test/completion/` after changing commands or options.
import type { CommandModel } from './model.js';

export const PROGRAM: CommandModel = {
  name: "cmdb",
  aliases: [],
  description: "Administer the configuration database (CMDB) of a network security device (release 6.4.14) through its REST API.",
  args: [],
  options: [
    {"flags":["-V","--version"],"description":"print the version","value":"none"},
    {"flags":["-d","--device"],"description":"saved device profile to use (env CMDB_DEVICE)","value":"required"},
    {"flags":["--host"],"description":"device address, https://fw.example:8443 (env CMDB_HOST)","value":"required"},
    {"flags":["--vdom"],"description":"VDOM: root, a,b or '*' (env CMDB_VDOM)","value":"required"},
    {"flags":["-o","--output"],"description":"table, json, yaml, ndjson or csv (env CMDB_OUTPUT)","value":"required"},
    {"flags":["--raw"],"description":"print the device's JSON response untouched","value":"none"},
    {"flags":["--ca-file"],"description":"trust this CA bundle for TLS (env CMDB_CA_FILE)","value":"required"},
    {"flags":["--insecure"],"description":"do not verify TLS (env CMDB_INSECURE=1)","value":"none"},
    {"flags":["--timeout"],"description":"per-request timeout, default 30 (env CMDB_TIMEOUT)","value":"required"},
    {"flags":["-v","--verbose"],"description":"print each HTTP exchange on stderr, secrets redacted (env CMDB_DEBUG=1)","value":"none"},
    {"flags":["--no-color"],"description":"no ANSI colour (env NO_COLOR)","value":"none"},
    {"flags":["--demo"],"description":"run against the built-in emulated device (env CMDB_DEMO=1)","value":"none"},
    {"flags":["--force"],"description":"send an operation the catalogue does not list for the table","value":"none"},
    {"flags":["-h","--help"],"description":"display help for command","value":"none"},
  ],
  commands: [
    {
      name: "tables",
      aliases: [],
      description: "print the catalogue of tables (sends nothing)",
      args: [],
      options: [
        {"flags":["--group"],"description":"only tables of this access group","value":"required"},
        {"flags":["--area"],"description":"only tables of this area (log, firewall, ...)","value":"required"},
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "list",
      aliases: [],
      description: "list the objects of a table",
      args: [
        {"name":"table","required":true,"variadic":false},
      ],
      options: [
        {"flags":["--datasource"],"description":"include datasource information for linked objects","value":"none"},
        {"flags":["--with-meta"],"description":"include meta information (q_ref, q_type...) per object","value":"none"},
        {"flags":["--skip"],"description":"apply the CLI skip operator to hide skipped properties","value":"none"},
        {"flags":["--fields"],"description":"only these fields (sent as format=a|b)","value":"required"},
        {"flags":["--filter"],"description":"field<op>value with == != =@ !@ <= < >= > (repeat: AND; commas: OR)","value":"required"},
        {"flags":["--start"],"description":"first entry index","value":"required"},
        {"flags":["--count"],"description":"maximum number of entries (with --all: in total)","value":"required"},
        {"flags":["--all"],"description":"fetch every page","value":"none"},
        {"flags":["--page-size"],"description":"entries per request with --all (default 1000)","value":"required"},
        {"flags":["--with-contents-hash"],"description":"include a checksum of each object's contents","value":"none"},
        {"flags":["--key"],"description":"filter on this property (with --pattern)","value":"required"},
        {"flags":["--pattern"],"description":"value for --key","value":"required"},
        {"flags":["--scope"],"description":"global, vdom or both","value":"required","choices":["global","vdom","both"]},
        {"flags":["--exclude-default-values"],"description":"leave out properties that hold their default value","value":"none"},
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "get",
      aliases: [],
      description: "read one object, or a singleton table",
      args: [
        {"name":"table","required":true,"variadic":false},
        {"name":"key","required":false,"variadic":false},
      ],
      options: [
        {"flags":["--datasource"],"description":"include datasource information for linked objects","value":"none"},
        {"flags":["--with-meta"],"description":"include meta information (q_ref, q_type...) per object","value":"none"},
        {"flags":["--skip"],"description":"apply the CLI skip operator to hide skipped properties","value":"none"},
        {"flags":["--fields"],"description":"only these fields (sent as format=a|b)","value":"required"},
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "create",
      aliases: [],
      description: "create an object (an array body creates each element)",
      args: [
        {"name":"table","required":true,"variadic":false},
        {"name":"body","required":false,"variadic":false},
      ],
      options: [
        {"flags":["-f","--file"],"description":"body from a JSON or YAML file ('-' for stdin)","value":"required"},
        {"flags":["--data"],"description":"body as JSON","value":"required"},
        {"flags":["--set"],"description":"set one field, typed by the table schema (repeatable)","value":"required"},
        {"flags":["--concurrency"],"description":"parallel requests for an array body (default 4)","value":"required"},
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "clone",
      aliases: [],
      description: "copy an object under a new key",
      args: [
        {"name":"table","required":true,"variadic":false},
        {"name":"key","required":true,"variadic":false},
        {"name":"new-key","required":true,"variadic":false},
      ],
      options: [
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "update",
      aliases: [],
      description: "change fields of an object ([key] [body]), or of a singleton ([body])",
      args: [
        {"name":"table","required":true,"variadic":false},
        {"name":"args","required":false,"variadic":true},
      ],
      options: [
        {"flags":["-f","--file"],"description":"body from a JSON or YAML file ('-' for stdin)","value":"required"},
        {"flags":["--data"],"description":"body as JSON","value":"required"},
        {"flags":["--set"],"description":"set one field, typed by the table schema (repeatable)","value":"required"},
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "move",
      aliases: [],
      description: "move an object before or after another",
      args: [
        {"name":"table","required":true,"variadic":false},
        {"name":"key","required":true,"variadic":false},
      ],
      options: [
        {"flags":["--before"],"description":"move in front of this object","value":"required"},
        {"flags":["--after"],"description":"move behind this object","value":"required"},
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "delete",
      aliases: [],
      description: "delete objects by key",
      args: [
        {"name":"table","required":true,"variadic":false},
        {"name":"keys","required":true,"variadic":true},
      ],
      options: [
        {"flags":["--concurrency"],"description":"parallel requests for several keys (default 4)","value":"required"},
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "schema",
      aliases: [],
      description: "print the CLI schema of a table (action=schema)",
      args: [
        {"name":"table","required":true,"variadic":false},
      ],
      options: [
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "defaults",
      aliases: [],
      description: "print the default values of a table (action=default)",
      args: [
        {"name":"table","required":true,"variadic":false},
      ],
      options: [
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "meta",
      aliases: [],
      description: "print the meta data of a table (action=meta)",
      args: [
        {"name":"table","required":true,"variadic":false},
      ],
      options: [
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "revision",
      aliases: [],
      description: "print the CMDB revision of a table (action=revision)",
      args: [
        {"name":"table","required":true,"variadic":false},
        {"name":"key","required":false,"variadic":false},
      ],
      options: [
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "transactions",
      aliases: [],
      description: "list configuration transactions (action=transaction-list)",
      args: [
        {"name":"table","required":true,"variadic":false},
        {"name":"key","required":false,"variadic":false},
      ],
      options: [
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "completion",
      aliases: [],
      description: "print the completion script for bash, zsh or fish",
      args: [
        {"name":"shell","required":true,"variadic":false},
      ],
      options: [
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "login",
      aliases: [],
      description: "check a credential against a device and save it (keychain) with a device profile",
      args: [],
      options: [
        {"flags":["--token-stdin"],"description":"read an API token from stdin","value":"none"},
        {"flags":["--username"],"description":"log in as this administrator (password prompted, or --password-stdin)","value":"required"},
        {"flags":["--password-stdin"],"description":"read the password from stdin","value":"none"},
        {"flags":["--token-code"],"description":"second-factor code, when the device asks for one","value":"required"},
        {"flags":["--accept-disclaimer"],"description":"accept the device's login banner","value":"none"},
        {"flags":["--fingerprint"],"description":"pin the device's certificate (SHA-256, colons optional)","value":"required"},
        {"flags":["--insecure-storage"],"description":"without a keychain: keep the secret in credentials.yaml (plain text, mode 0600)","value":"none"},
        {"flags":["--prefix"],"description":"API prefix of the device (default /api/v2/cmdb)","value":"required"},
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "logout",
      aliases: [],
      description: "end the device session and delete the saved session",
      args: [],
      options: [
        {"flags":["--forget"],"description":"also delete the saved credential (API token or password)","value":"none"},
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
    {
      name: "auth",
      aliases: [],
      description: "credentials of the device",
      args: [],
      options: [
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [
        {
          name: "status",
          aliases: [],
          description: "device, host, auth kind, where the secret is stored, whether it works",
          args: [],
          options: [
            {"flags":["-h","--help"],"description":"display help for command","value":"none"},
          ],
          commands: [],
        },
      ],
    },
    {
      name: "demo",
      aliases: [],
      description: "the built-in emulated device used by --demo",
      args: [],
      options: [
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [
        {
          name: "reset",
          aliases: [],
          description: "forget the changes made with --demo",
          args: [],
          options: [
            {"flags":["-h","--help"],"description":"display help for command","value":"none"},
          ],
          commands: [],
        },
      ],
    },
    {
      name: "device",
      aliases: [],
      description: "saved device profiles",
      args: [],
      options: [
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [
        {
          name: "list",
          aliases: [],
          description: "list the saved devices",
          args: [],
          options: [
            {"flags":["-h","--help"],"description":"display help for command","value":"none"},
          ],
          commands: [],
        },
        {
          name: "show",
          aliases: [],
          description: "show the settings of a device (default: the one in use)",
          args: [
            {"name":"name","required":false,"variadic":false},
          ],
          options: [
            {"flags":["-h","--help"],"description":"display help for command","value":"none"},
          ],
          commands: [],
        },
        {
          name: "use",
          aliases: [],
          description: "make a device the default",
          args: [
            {"name":"name","required":true,"variadic":false},
          ],
          options: [
            {"flags":["-h","--help"],"description":"display help for command","value":"none"},
          ],
          commands: [],
        },
        {
          name: "remove",
          aliases: [],
          description: "delete a device, its saved credential and session",
          args: [
            {"name":"name","required":true,"variadic":false},
          ],
          options: [
            {"flags":["-h","--help"],"description":"display help for command","value":"none"},
          ],
          commands: [],
        },
      ],
    },
    {
      name: "emulator",
      aliases: [],
      description: "run the local emulated device in the foreground (--host sets where it listens)",
      args: [],
      options: [
        {"flags":["--port"],"description":"port (0 picks a free one)","value":"required"},
        {"flags":["--tls"],"description":"serve HTTPS with a self-signed certificate generated at start","value":"none"},
        {"flags":["--state"],"description":"persist the state in this file across restarts","value":"required"},
        {"flags":["--seed"],"description":"initial data when there is no state","value":"required","choices":["demo","empty"]},
        {"flags":["--vdoms"],"description":"VDOM names, the management VDOM first","value":"required"},
        {"flags":["--config"],"description":"administrators, API tokens with access profiles, and limits (YAML or JSON)","value":"required"},
        {"flags":["-h","--help"],"description":"display help for command","value":"none"},
      ],
      commands: [],
    },
  ],
};
