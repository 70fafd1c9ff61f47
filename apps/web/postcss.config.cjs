// Breakpoints match the Mantine theme (docs/product-rules.md "Screens and layout":
// 600/960/1280/1560 px).
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
    'postcss-simple-vars': {
      variables: {
        'mantine-breakpoint-xs': '37.5em',
        'mantine-breakpoint-sm': '60em',
        'mantine-breakpoint-md': '80em',
        'mantine-breakpoint-lg': '97.5em',
        'mantine-breakpoint-xl': '120em',
      },
    },
  },
};
