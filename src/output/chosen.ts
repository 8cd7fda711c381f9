// The columns a table shows for the tables administrators read daily, as the device's own GUI lists
// them (docs/objects.md, "Columns"). Data only: any other table gets the columns that carry information.

/**
 * A table's chosen columns, in order. A column is shown where some object has a value in it; one ending
 * in `?` only where some object's value differs from the field's default (an address's `start-ip`).
 */
export const CHOSEN_COLUMNS: Readonly<Record<string, string>> = {
  'firewall/policy': 'policyid name srcintf dstintf srcaddr dstaddr service schedule action nat status',
  'firewall/address':
    'name type subnet? start-ip? end-ip? fqdn? wildcard-fqdn? country? interface? associated-interface? comment',
  'firewall/addrgrp': 'name type? member exclude-member? comment',
  'firewall.service/custom':
    'name category protocol tcp-portrange? udp-portrange? sctp-portrange? protocol-number? icmptype? iprange? fqdn? ' +
    'comment',
  'firewall.service/group': 'name member comment',
  'system/interface': 'name alias? vdom type role? mode ip allowaccess member? vlanid? interface? status',
  'router/static': 'seq-num dst dstaddr? gateway device distance? priority? status comment',
  'user/local': 'name type status two-factor? ldap-server? radius-server? tacacs+-server? email-to?',
  'firewall/vip': 'name type? extintf extip extport? mappedip mappedport? portforward? protocol? comment',
  'firewall/ippool': 'name type startip endip source-startip? source-endip? arp-reply? comments',
};
