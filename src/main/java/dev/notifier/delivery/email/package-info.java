/** Email over SMTP: a message built from the event alone, with a Message-ID stable across attempts. */
package dev.notifier.delivery.email;
