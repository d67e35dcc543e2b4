/** What `lobby service-unit` fills in. */
export interface ServiceUnitOptions {
  /** Absolute path of the installed binary. */
  binary: string
  /** System user (and group) the server runs as; the README creates it. */
  user: string
  port: number
  host: string
}

export const SERVICE_UNIT_DEFAULTS: ServiceUnitOptions = {
  binary: '/usr/local/bin/lobby',
  user: 'lobby',
  port: 8080,
  host: '0.0.0.0',
}

/**
 * A hardened systemd unit for `lobby serve` (contract §13). The database lives in
 * /var/lib/lobby (StateDirectory, created owner-only for the service user); everything else
 * of the file system is read-only to the server. Bun's JIT needs writable+executable memory,
 * so MemoryDenyWriteExecute stays off; a port below 1024 needs CAP_NET_BIND_SERVICE, which
 * the unit grants only then.
 */
export function serviceUnit(options: ServiceUnitOptions = SERVICE_UNIT_DEFAULTS): string {
  const privilegedPort = options.port > 0 && options.port < 1024
  return `# Lobby: queue, widget and prayer-schedule server.
# Install: see README "Running as a service". Settings: flags on ExecStart or
# Environment= lines (LOBBY_RETAIN_DAYS, LOBBY_METRICS_TOKEN, LOBBY_TLS_CERT/KEY, ...).
[Unit]
Description=Lobby queue, widget and prayer-schedule server
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=${options.user}
Group=${options.user}
# /var/lib/lobby, created owner-only for ${options.user}; the database and its pre-migration backups live here.
StateDirectory=lobby
StateDirectoryMode=0700
WorkingDirectory=/var/lib/lobby
UMask=0077
Environment=LOBBY_DB=/var/lib/lobby/lobby.db
Environment=LOBBY_HOST=${options.host}
Environment=LOBBY_PORT=${options.port}
ExecStart=${options.binary} serve
# SIGTERM: stop accepting, finish in-flight requests, close the database, exit 0.
KillSignal=SIGTERM
TimeoutStopSec=30
Restart=on-failure
RestartSec=2
# Exit 2 is a configuration error (bad flag or file, contract §1): restarting would only repeat it.
RestartPreventExitStatus=2
LimitNOFILE=65536

# Hardening
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
ProcSubset=pid
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
RemoveIPC=yes
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallErrorNumber=EPERM
CapabilityBoundingSet=${privilegedPort ? 'CAP_NET_BIND_SERVICE' : ''}
AmbientCapabilities=${privilegedPort ? 'CAP_NET_BIND_SERVICE' : ''}
# Bun's JIT compiles to memory that is written, then executed.
MemoryDenyWriteExecute=no

[Install]
WantedBy=multi-user.target
`
}
