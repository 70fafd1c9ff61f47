import { createTheme } from '@mantine/core';

/** Breakpoints of the spec (§9: 600/960/1280/1560 px), in em as Mantine expects. */
export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'sm',
  breakpoints: {
    xs: '37.5em',
    sm: '60em',
    md: '80em',
    lg: '97.5em',
    xl: '120em',
  },
});
