/** The security baseline on real parts: hostile input, record headers, TLS, the management port, secrets, retention. */
package dev.notifier.security;
