/**
 * A daemon that hops (SPEC §9.2's hardest leftover): it leaves the session (fork, setsid),
 * then forks every `intervalMs`, each parent exiting at once, so its pid changes all the
 * time and a scan of `/proc` always finds a pid that has already moved on. Perl (part of
 * every Debian-like base system) because hopping needs fork without exec, which Bun
 * cannot do. `tag` is in every hop's command line, so a test finds all of them; each hop
 * ends by itself after `lifetimeMs`, so a failing test leaves nothing for long.
 */

const PROGRAM = `
use strict;
use POSIX ();
my ($tag, $interval_ms, $lifetime_ms) = @ARGV;
my $deadline = time() + int($lifetime_ms / 1000) + 1;
my $first = fork();
exit 0 if !defined $first || $first;
POSIX::setsid();
while (time() < $deadline) {
  select(undef, undef, undef, $interval_ms / 1000);
  my $child = fork();
  next unless defined $child;
  POSIX::_exit(0) if $child;
}
POSIX::_exit(0);
`;

export const PERL = "/usr/bin/perl";

/** The argv that starts a hopper (its own first fork leaves the caller at once). */
export function hopperArgv(tag: string, intervalMs: number, lifetimeMs: number): string[] {
  return [PERL, "-e", PROGRAM, tag, String(intervalMs), String(lifetimeMs)];
}
