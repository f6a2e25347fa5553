/** Push over the HTTP push gateway: the contract's JSON request and its status mapping. */
package dev.notifier.delivery.push;
